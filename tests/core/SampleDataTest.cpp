#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>

#include "TempDir.h"
#include "core/io/PathLoader.h"
#include "core/model/FrameSeries.h"
#include "core/sample/DceMrSample.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleRandom.h"
#include "core/sample/SampleReaders.h"

using namespace delineate::core;
using namespace delineate::core::sample;

namespace {

struct LabelStats {
  std::size_t count = 0;
  Vec3 centroid{0, 0, 0};
  double meanValue = 0;
};

std::map<std::uint16_t, LabelStats> labelStats(const SampleCase& c) {
  std::map<std::uint16_t, LabelStats> stats;
  const auto& g = c.labels->geometry();
  const auto* lab = c.labels->data<std::uint16_t>();
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        const std::size_t n = c.labels->linearIndex(i, j, k);
        auto& s = stats[lab[n]];
        const Vec3 p = g.indexToWorld({double(i), double(j), double(k)});
        for (int a = 0; a < 3; ++a) {
          s.centroid[a] += p[a];
        }
        s.meanValue += c.image->valueAt(i, j, k);
        ++s.count;
      }
    }
  }
  for (auto& [label, s] : stats) {
    for (int a = 0; a < 3; ++a) {
      s.centroid[a] /= double(s.count);
    }
    s.meanValue /= double(s.count);
  }
  return stats;
}

double voxelMl(const Volume& v) {
  const auto& s = v.geometry().spacing;
  return s[0] * s[1] * s[2] / 1000.0;
}

bool sameVoxels(const Volume& a, const Volume& b) {
  return a.voxels().bytes() == b.voxels().bytes() &&
         std::memcmp(a.voxels().data(), b.voxels().data(), a.voxels().bytes()) == 0;
}

}  // namespace

TEST(SampleData, BrainMrIsDeterministicPerSeed) {
  const SampleCase a = makeBrainMr(7);
  const SampleCase b = makeBrainMr(7);
  const SampleCase c = makeBrainMr(8);
  EXPECT_TRUE(sameVoxels(*a.image, *b.image));
  EXPECT_TRUE(sameVoxels(*a.labels, *b.labels));
  EXPECT_EQ(a.image->info().seriesInstanceUid, b.image->info().seriesInstanceUid);
  EXPECT_FALSE(sameVoxels(*a.image, *c.image));
  EXPECT_NE(a.image->info().studyInstanceUid, c.image->info().studyInstanceUid);
}

TEST(SampleData, BrainMrHasTwoPartHippocampiOnTheRightSides) {
  const SampleCase mr = makeBrainMr(20261121);
  ASSERT_EQ(mr.segments.size(), 7u);
  const auto stats = labelStats(mr);
  const double ml = voxelMl(*mr.image);
  for (std::uint16_t label : {4, 5, 6, 7}) {
    ASSERT_TRUE(stats.count(label)) << "label " << label;
    const double volume = double(stats.at(label).count) * ml;
    EXPECT_GT(volume, 0.5) << mr.segments[label - 1].name;
    EXPECT_LT(volume, 3.5) << mr.segments[label - 1].name;
  }
  // Left (+x in LPS) for labels 4/5, right for 6/7; head anterior (-y) of body.
  EXPECT_GT(stats.at(4).centroid[0], 15);
  EXPECT_GT(stats.at(5).centroid[0], 15);
  EXPECT_LT(stats.at(6).centroid[0], -15);
  EXPECT_LT(stats.at(4).centroid[1], stats.at(5).centroid[1]);
  EXPECT_LT(stats.at(6).centroid[1], stats.at(7).centroid[1]);
  // T1 contrast: white matter brighter than grey matter brighter than CSF in the ventricles, and
  // the hippocampus stands out from the white matter around it.
  EXPECT_GT(stats.at(1).meanValue, stats.at(2).meanValue + 100);
  EXPECT_GT(stats.at(2).meanValue, stats.at(3).meanValue + 100);
  EXPECT_LT(stats.at(4).meanValue, stats.at(1).meanValue - 80);
  EXPECT_EQ(mr.image->info().modality, "MR");
  EXPECT_EQ(mr.image->geometry().size, (Size3{160, 192, 144}));
}

TEST(SampleData, TheBrainHasTwoMoreReadersWhoDrewItAlmostAlike) {
  const SampleCase mr = makeBrainMr(20261121);
  const std::vector<LabelMap> readers = sampleReaders(mr);
  ASSERT_EQ(readers.size(), 2u);
  EXPECT_EQ(readers[0].name(), "reader-b");
  EXPECT_EQ(readers[1].name(), "reader-c");
  const std::uint16_t* truth = mr.labels->data<std::uint16_t>();
  const std::size_t n = mr.labels->geometry().voxelCount();
  for (const LabelMap& r : readers) {
    EXPECT_EQ(r.segments(), mr.segments) << r.name();
    // Per structure: near the truth (Dice over 0.6) but not the same; B never adds a voxel.
    for (std::uint16_t label = 1; label <= 7; ++label) {
      std::size_t both = 0, mine = 0, theirs = 0;
      for (std::size_t i = 0; i < n; ++i) {
        both += r.data()[i] == label && truth[i] == label;
        mine += r.data()[i] == label;
        theirs += truth[i] == label;
      }
      const double dice = 2.0 * double(both) / double(mine + theirs);
      EXPECT_GT(dice, 0.6) << r.name() << " label " << label;
      EXPECT_LT(dice, 1.0) << r.name() << " label " << label;
      if (r.name() == "reader-b") {
        EXPECT_EQ(both, mine) << "label " << label;
      }
    }
  }
}

TEST(SampleData, AbdomenCtOrgansAndMarkerAreWhereAnatomySaysTheyAre) {
  const SampleCase ct = makeAbdomenCt(20261121);
  const auto stats = labelStats(ct);
  EXPECT_LT(stats.at(1).centroid[0], -30) << "liver must be on the patient's right (-x)";
  EXPECT_GT(stats.at(2).centroid[0], 40) << "spleen must be on the patient's left (+x)";
  EXPECT_LT(stats.at(3).centroid[0], 0);
  EXPECT_GT(stats.at(4).centroid[0], 0);
  EXPECT_NEAR(stats.at(1).meanValue, 62, 8);
  EXPECT_LT(stats.at(5).meanValue, stats.at(1).meanValue - 20) << "lesions are hypodense";
  const double liverMl = double(stats.at(1).count) * voxelMl(*ct.image);
  EXPECT_GT(liverMl, 800);
  EXPECT_LT(liverMl, 2500);
  // The metal marker: the brightest voxels of a mid slice lie on the patient's left, anterior.
  const auto& g = ct.image->geometry();
  const std::size_t k = g.size[2] / 2;
  double best = -1e9;
  Vec3 where{};
  for (std::size_t j = 0; j < g.size[1]; ++j) {
    for (std::size_t i = 0; i < g.size[0]; ++i) {
      if (ct.image->valueAt(i, j, k) > best) {
        best = ct.image->valueAt(i, j, k);
        where = g.indexToWorld({double(i), double(j), double(k)});
      }
    }
  }
  EXPECT_GT(best, 1500);
  EXPECT_GT(where[0], 100);
  EXPECT_LT(where[1], -60);
}

TEST(SampleData, MammogramsCarryLesionsInTheExpectedBreast) {
  const SampleCase lcc = makeMammogram(20261121, "L", "CC", false);
  const SampleCase rcc = makeMammogram(20261121, "R", "CC", false);
  const SampleCase lccPrior = makeMammogram(20261121, "L", "CC", true);
  const auto ls = labelStats(lcc), rs = labelStats(rcc), ps = labelStats(lccPrior);
  EXPECT_TRUE(ls.count(1));
  EXPECT_FALSE(ls.count(2));
  EXPECT_TRUE(rs.count(2));
  EXPECT_FALSE(rs.count(1));
  EXPECT_LT(ps.at(1).count, ls.at(1).count) << "the mass grew since the prior";
  EXPECT_GT(ls.at(1).meanValue, ls.at(0).meanValue + 500) << "a mass is dense";
  const auto [lo, hi] = lcc.image->valueRange();
  EXPECT_GE(lo, 0);
  EXPECT_LE(hi, 4095) << "12 bits stored";
  EXPECT_EQ(lcc.image->scalarType(), ScalarType::UInt16);
  // The left breast's chest wall is at the image's left: breast tissue fills column 0, not the
  // last.
  const auto& g = lcc.image->geometry();
  EXPECT_GT(lcc.image->valueAt(0, g.size[1] / 2, 0), 700);
  EXPECT_LT(lcc.image->valueAt(g.size[0] - 1, g.size[1] / 2, 0), 300);
  EXPECT_GT(rcc.image->valueAt(g.size[0] - 1, g.size[1] / 2, 0), 700);
  EXPECT_EQ(lcc.image->info().laterality, "L");
  EXPECT_EQ(lcc.image->info().viewPosition, "CC");
  EXPECT_NE(lcc.image->info().studyInstanceUid, lccPrior.image->info().studyInstanceUid);
  EXPECT_EQ(lcc.image->info().patientId, lccPrior.image->info().patientId);
}

TEST(SampleData, UidsAreValidDicomUids) {
  const std::string uid = deterministicUid(1, "x");
  EXPECT_EQ(uid.rfind("2.25.", 0), 0u);
  EXPECT_LE(uid.size(), 64u);
  EXPECT_EQ(uid.find_first_not_of("0123456789.", 0), std::string::npos);
  EXPECT_NE(uid[5], '0');
}

TEST(SampleData, DceMrIsFourDimensionalWithALesionThatWashesOut) {
  delineate::test::TempDir dir;
  writeDceMrSeries(dir.path(), 3);
  NullProgress progress;
  const OpenedPath opened = openPath(dir.path(), progress);
  ASSERT_TRUE(opened.volume);
  const auto& series = opened.volume->info().frames;
  ASSERT_TRUE(series) << "the time points form a 4-D image";
  ASSERT_EQ(series->count(), static_cast<std::size_t>(kDceTimePoints));
  EXPECT_EQ(opened.volume->geometry().size[2], 16u);
  // The lesion's centre (world -20, -15, 2 mm): enhancement peaks early and then falls; the
  // gland beside it keeps rising slowly.
  const auto& g = opened.volume->geometry();
  auto voxelAt = [&](const Vec3& world) {
    const Vec3 q = g.worldToIndex(world);
    return std::array<std::size_t, 3>{static_cast<std::size_t>(std::lround(q[0])),
                                      static_cast<std::size_t>(std::lround(q[1])),
                                      static_cast<std::size_t>(std::lround(q[2]))};
  };
  const auto lesion = voxelAt({-20, -15, 2});
  const std::vector<double> curve = series->valuesAt(lesion[0], lesion[1], lesion[2]);
  const auto peak = std::max_element(curve.begin(), curve.end()) - curve.begin();
  EXPECT_GT(curve[static_cast<std::size_t>(peak)], 1.8 * curve[0]) << "strong enhancement";
  EXPECT_LT(peak, static_cast<long>(curve.size()) - 2) << "the peak comes early";
  EXPECT_LT(curve.back(), curve[static_cast<std::size_t>(peak)] - 20) << "then it washes out";
}
