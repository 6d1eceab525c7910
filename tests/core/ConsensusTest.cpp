// Consensus of readers: STAPLE (ITK's filter, per label) against an EM written here from the
// method's equations, on readers whose errors are known; the majority vote with its ties; the
// refusals; and `delineate-cli consensus` writing the map and its statistics.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/io/LabelMapFileIO.h"
#include "core/jobs/ProgressSink.h"
#include "core/metrics/Consensus.h"
#include "core/metrics/ReaderAgreement.h"

using namespace delineate::core;

namespace {

ImageGeometry consensusGrid(std::size_t n = 40) {
  ImageGeometry g;
  g.size = {n, n, n};
  g.spacing = {1, 1, 1};
  return g;
}

// Truth: a ball of label 1 (radius 9) and a block of label 2 beside it.
LabelMap consensusTruth() {
  LabelMap m("truth", consensusGrid(), {defaultSegment(1), defaultSegment(2)});
  const Size3 n = m.geometry().size;
  for (std::size_t k = 0; k < n[2]; ++k) {
    for (std::size_t j = 0; j < n[1]; ++j) {
      for (std::size_t i = 0; i < n[0]; ++i) {
        const double d = std::hypot(double(i) - 15, double(j) - 20, double(k) - 20);
        if (d <= 9) {
          m.mutableData()[m.index(i, j, k)] = 1;
        } else if (i >= 27 && i < 34 && j >= 14 && j < 26 && k >= 14 && k < 26) {
          m.mutableData()[m.index(i, j, k)] = 2;
        }
      }
    }
  }
  return m;
}

// A deterministic "random" number in [0, 1) per voxel and reader.
double readerNoise(std::size_t v, int reader) {
  std::uint64_t x = v * 0x9E3779B97F4A7C15ull + std::uint64_t(reader) * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 29;
  return double(x % 1000003) / 1000003.0;
}

// A reader who misses `miss` of each structure and marks `extra` of the voxels next to it
// (within 3 voxels of a structure) as that structure.
LabelMap noisyReader(const LabelMap& t, int id, double miss, double extra) {
  LabelMap r("reader " + std::to_string(id), t.geometry(), t.segments());
  const Size3 n = t.geometry().size;
  for (std::size_t k = 0; k < n[2]; ++k) {
    for (std::size_t j = 0; j < n[1]; ++j) {
      for (std::size_t i = 0; i < n[0]; ++i) {
        const std::size_t v = t.index(i, j, k);
        std::uint16_t near = 0;
        for (int dk = -3; dk <= 3 && near == 0; ++dk) {
          for (int dj = -3; dj <= 3 && near == 0; ++dj) {
            for (int di = -3; di <= 3 && near == 0; ++di) {
              const long a = long(i) + di, b = long(j) + dj, c = long(k) + dk;
              if (a >= 0 && b >= 0 && c >= 0 && a < long(n[0]) && b < long(n[1]) &&
                  c < long(n[2])) {
                near = t.at(std::size_t(a), std::size_t(b), std::size_t(c));
              }
            }
          }
        }
        const std::uint16_t label = t.data()[v];
        std::uint16_t out = label;
        if (label != 0 && readerNoise(v, id) < miss) {
          out = 0;
        } else if (label == 0 && near != 0 && readerNoise(v, id) < extra) {
          out = near;
        }
        r.mutableData()[v] = out;
      }
    }
  }
  return r;
}

double diceOf(const LabelMap& a, const LabelMap& b, std::uint16_t label) {
  std::size_t both = 0, na = 0, nb = 0;
  for (std::size_t v = 0; v < a.voxelCount(); ++v) {
    na += a.data()[v] == label;
    nb += b.data()[v] == label;
    both += a.data()[v] == label && b.data()[v] == label;
  }
  return 2.0 * double(both) / double(na + nb);
}

// Binary STAPLE by expectation-maximisation, from the method's equations: W is each voxel's
// probability of being the structure, p and q each reader's sensitivity and specificity. Starts,
// as the method does, from the readers' mean and that mean's average as the prior.
struct ReferenceStaple {
  std::vector<double> p, q, w;
};

ReferenceStaple referenceStaple(const std::vector<std::vector<std::uint8_t>>& d) {
  const std::size_t n = d.front().size(), readers = d.size();
  ReferenceStaple s;
  s.w.assign(n, 0.0);
  for (const auto& r : d) {
    for (std::size_t v = 0; v < n; ++v) {
      s.w[v] += r[v] / double(readers);
    }
  }
  double prior = 0;
  for (double x : s.w) {
    prior += x / double(n);
  }
  s.p.assign(readers, 0);
  s.q.assign(readers, 0);
  for (int iteration = 0; iteration < 500; ++iteration) {
    for (std::size_t r = 0; r < readers; ++r) {
      double pn = 0, pd = 0, qn = 0, qd = 0;
      for (std::size_t v = 0; v < n; ++v) {
        pn += d[r][v] * s.w[v];
        pd += s.w[v];
        qn += (1 - d[r][v]) * (1 - s.w[v]);
        qd += 1 - s.w[v];
      }
      s.p[r] = pn / pd;
      s.q[r] = qn / qd;
    }
    for (std::size_t v = 0; v < n; ++v) {
      double a = prior, b = 1 - prior;
      for (std::size_t r = 0; r < readers; ++r) {
        a *= d[r][v] ? s.p[r] : 1 - s.p[r];
        b *= d[r][v] ? 1 - s.q[r] : s.q[r];
      }
      s.w[v] = a / (a + b);
    }
  }
  return s;
}

}  // namespace

TEST(Consensus, StapleEstimatesKnownReadersAsAnIndependentEmDoes) {
  const LabelMap t = consensusTruth();
  const LabelMap a = noisyReader(t, 1, 0.10, 0.00);  // misses a tenth
  const LabelMap b = noisyReader(t, 2, 0.00, 0.15);  // marks 15 % of the rim too
  const LabelMap c = noisyReader(t, 3, 0.05, 0.05);
  NullProgress quiet;
  const ConsensusResult r = computeConsensus({&a, &b, &c}, {}, quiet);
  ASSERT_EQ(r.labels, (std::vector<std::uint16_t>{1, 2}));
  ASSERT_EQ(r.readers.size(), 3u);

  // The consensus is closer to the truth than any reader.
  for (std::uint16_t label : {1, 2}) {
    const double consensus = diceOf(*r.consensus, t, label);
    for (const LabelMap* m : {&a, &b, &c}) {
      EXPECT_GT(consensus, diceOf(*m, t, label)) << m->name() << ", label " << label;
    }
    EXPECT_GT(consensus, 0.97) << "label " << label;
  }
  // Each reader's sensitivity, as STAPLE estimates it, is the one built in.
  EXPECT_NEAR(r.readers[0][0].sensitivity, 0.90, 0.03);
  EXPECT_NEAR(r.readers[1][0].sensitivity, 1.00, 0.02);
  EXPECT_NEAR(r.readers[2][0].sensitivity, 0.95, 0.03);
  EXPECT_GT(r.readers[0][0].specificity, r.readers[1][0].specificity)
      << "the reader who marks the rim is the less specific";

  // The same numbers as an EM written from the equations, on the same box.
  const Size3 n = t.geometry().size;
  for (std::size_t l = 0; l < r.labels.size(); ++l) {
    std::vector<std::vector<std::uint8_t>> d(3);
    std::vector<std::size_t> inBox;
    for (std::size_t k = r.boxFrom[2]; k < r.boxTo[2]; ++k) {
      for (std::size_t j = r.boxFrom[1]; j < r.boxTo[1]; ++j) {
        for (std::size_t i = r.boxFrom[0]; i < r.boxTo[0]; ++i) {
          inBox.push_back(i + n[0] * (j + n[1] * k));
        }
      }
    }
    const LabelMap* maps[] = {&a, &b, &c};
    for (int m = 0; m < 3; ++m) {
      for (std::size_t v : inBox) {
        d[std::size_t(m)].push_back(maps[m]->data()[v] == r.labels[l] ? 1 : 0);
      }
    }
    const ReferenceStaple ref = referenceStaple(d);
    for (std::size_t m = 0; m < 3; ++m) {
      EXPECT_NEAR(r.readers[m][l].sensitivity, ref.p[m], 1e-4) << "reader " << m << " label " << l;
      EXPECT_NEAR(r.readers[m][l].specificity, ref.q[m], 1e-4) << "reader " << m << " label " << l;
    }
    std::size_t differ = 0;
    for (std::size_t x = 0; x < inBox.size(); ++x) {
      const bool mine = r.consensus->data()[inBox[x]] == r.labels[l];
      differ += mine != (ref.w[x] >= 0.5);
    }
    EXPECT_LE(differ, inBox.size() / 1000) << "label " << r.labels[l];
  }
}

TEST(Consensus, TheVoteTakesTheMostCommonLabelAndLeavesTiesOut) {
  LabelMap x("x", consensusGrid(4)), y("y", consensusGrid(4)), z("z", consensusGrid(4));
  // Voxel 0: 1,1,2 -> 1. Voxel 1: 1,2,0 -> tie -> 0. Voxel 2: 0,0,1 -> 0. Voxel 3: 2,2,2 -> 2.
  const std::uint16_t values[3][4] = {{1, 1, 0, 2}, {1, 2, 0, 2}, {2, 0, 1, 2}};
  LabelMap* maps[] = {&x, &y, &z};
  for (int m = 0; m < 3; ++m) {
    for (int v = 0; v < 4; ++v) {
      maps[m]->mutableData()[std::size_t(v)] = values[m][v];
    }
  }
  NullProgress quiet;
  ConsensusOptions vote;
  vote.method = ConsensusMethod::Vote;
  const ConsensusResult r = computeConsensus({&x, &y, &z}, vote, quiet);
  const std::uint16_t* c = r.consensus->data();
  EXPECT_EQ(c[0], 1);
  EXPECT_EQ(c[1], 0);
  EXPECT_EQ(c[2], 0);
  EXPECT_EQ(c[3], 2);
  EXPECT_EQ(r.undecided, 1u);
  ASSERT_EQ(r.labels, (std::vector<std::uint16_t>{1, 2}));
  EXPECT_EQ(r.voxels, (std::vector<std::size_t>{1, 1}));
  EXPECT_DOUBLE_EQ(r.readers[0][0].sensitivity, 1.0) << "x marked the one voxel of label 1";
  EXPECT_DOUBLE_EQ(r.readers[2][0].sensitivity, 0.0) << "z did not";
  const nlohmann::json j = r.toJson({"x.nii.gz", "y.nii.gz", "z.nii.gz"}, vote.method);
  EXPECT_EQ(j["method"], "vote");
  EXPECT_EQ(j["undecided_voxels"], 1);
  EXPECT_EQ(j["readers"][1]["reader"], "y.nii.gz");
}

TEST(Consensus, OneReaderOrAnotherGridIsRefusedNamingIt) {
  LabelMap a("a.nii.gz", consensusGrid(8)), b("b.nii.gz", consensusGrid(9));
  NullProgress quiet;
  try {
    computeConsensus({&a}, {}, quiet);
    ADD_FAILURE() << "one reader accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("at least two"), std::string::npos) << e.what();
  }
  try {
    computeConsensus({&a, &b}, {}, quiet);
    ADD_FAILURE() << "another grid accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("b.nii.gz"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("size"), std::string::npos) << e.what();
  }
  // Nobody labelled anything: an empty consensus, no labels.
  LabelMap c("c", consensusGrid(8));
  const ConsensusResult r = computeConsensus({&a, &c}, {}, quiet);
  EXPECT_TRUE(r.labels.empty());
}

TEST(ConsensusCli, WritesTheMapAndEachReadersStatistics) {
  delineate::test::TempDir dir;
  const LabelMap t = consensusTruth();
  std::string files;
  std::vector<LabelMap> readers;
  for (int id = 1; id <= 3; ++id) {
    readers.push_back(noisyReader(t, id, 0.04 * id, 0.03 * id));
    const auto file = dir / ("reader" + std::to_string(id) + ".nii.gz");
    writeLabelMapFiles(readers.back(), file);
    files += " " + file.string();
  }
  const std::string cli = DELINEATE_CLI;
  std::string printed;
  ASSERT_EQ(delineate::test::runCommand(cli + " consensus --method staple" + files + " --out " +
                                            (dir / "staple.nii.gz").string() + " --json " +
                                            (dir / "stats.json").string() + " 2>&1",
                                        &printed),
            0)
      << printed;
  EXPECT_NE(printed.find("staple consensus of 3 readers"), std::string::npos) << printed;
  const LabelMap written = readLabelMapFiles(dir / "staple.nii.gz");
  NullProgress quiet;
  const ConsensusResult r = computeConsensus({&readers[0], &readers[1], &readers[2]}, {}, quiet);
  EXPECT_EQ(std::memcmp(written.data(), r.consensus->data(), written.voxelCount() * 2), 0);
  std::ifstream in(dir / "stats.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j["readers"].size(), 3u);
  EXPECT_NEAR(j["readers"][0]["labels"][0]["sensitivity"].get<double>(),
              r.readers[0][0].sensitivity, 1e-12);
  EXPECT_EQ(j["labels"][1]["label"], 2);

  // Refusals are usage errors or named; the statistics never overwrite the segment table.
  EXPECT_EQ(delineate::test::runCommand(cli + " consensus" + files + " --out " +
                                        (dir / "staple.nii.gz").string() + " --json " +
                                        (dir / "staple.json").string() + " 2>/dev/null"),
            2);
  EXPECT_EQ(delineate::test::runCommand(cli + " consensus --method mean" + files + " --out " +
                                        (dir / "x.nii.gz").string() + " 2>/dev/null"),
            2);
  EXPECT_EQ(delineate::test::runCommand(cli + " consensus " + (dir / "reader1.nii.gz").string() +
                                        " --out " + (dir / "x.nii.gz").string() + " 2>/dev/null"),
            2);
  EXPECT_EQ(
      delineate::test::runCommand(cli + " consensus " + (dir / "missing.nii.gz").string() + files +
                                  " --out " + (dir / "x.nii.gz").string() + " 2>/dev/null"),
      1);
}

TEST(ReaderAgreement, TheMatricesHoldEachPairsDiceAndHd95) {
  const LabelMap t = consensusTruth();
  const LabelMap a = noisyReader(t, 1, 0.10, 0.00);
  const LabelMap b = noisyReader(t, 2, 0.00, 0.15);
  LabelMap c = noisyReader(t, 3, 0.05, 0.05);
  for (std::size_t v = 0; v < c.voxelCount(); ++v) {  // c did not draw the block
    if (c.data()[v] == 2) {
      c.mutableData()[v] = 0;
    }
  }
  NullProgress quiet;
  const ReaderAgreement r = readerAgreement({&a, &b, &c}, {"a", "b", "c"}, quiet);
  ASSERT_EQ(r.labels.size(), 2u);
  const ReaderMatrices& ball = r.labels[0];
  EXPECT_EQ(ball.label, t.segment(1)->name);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ball.dice[i][i], 1.0);
    EXPECT_EQ(ball.hd95[i][i], 0.0);
    for (std::size_t j = 0; j < 3; ++j) {
      EXPECT_EQ(ball.dice[i][j], ball.dice[j][i]);
    }
  }
  EXPECT_NEAR(ball.dice[0][1], diceOf(a, b, 1), 1e-12);
  EXPECT_NEAR(ball.dice[1][2], diceOf(b, c, 1), 1e-12);
  EXPECT_GT(ball.hd95[0][1], 0.0);
  EXPECT_NEAR(ball.meanPairDice(), (diceOf(a, b, 1) + diceOf(a, c, 1) + diceOf(b, c, 1)) / 3,
              1e-12);
  const ReaderMatrices& block = r.labels[1];
  EXPECT_EQ(block.dice[0][2], 0.0) << "c has no block: no agreement";
  const nlohmann::json j = r.toJson();
  EXPECT_EQ(j["readers"], (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(j["labels"][1]["hd95_mm"][0][2], "inf");

  delineate::test::TempDir dir;
  std::string files;
  for (const LabelMap* m : std::initializer_list<const LabelMap*>{&a, &b, &c}) {
    const auto file = dir / (m->name() + ".nii.gz");
    writeLabelMapFiles(*m, file);
    files += " \"" + file.string() + "\"";
  }
  std::string printed;
  ASSERT_EQ(delineate::test::runCommand(std::string(DELINEATE_CLI) + " eval --readers" + files +
                                            " --json " + (dir / "agreement.json").string(),
                                        &printed),
            0)
      << printed;
  EXPECT_NE(printed.find("Dice"), std::string::npos) << printed;
  EXPECT_NE(printed.find("R3"), std::string::npos) << printed;
  std::ifstream in(dir / "agreement.json");
  const nlohmann::json written = nlohmann::json::parse(in);
  EXPECT_NEAR(written["labels"][0]["dice"][0][1].get<double>(), ball.dice[0][1], 1e-12);
}
