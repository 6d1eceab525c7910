// The consensus of readers over a dataset, past one machine: three readers' folders of label
// maps (a case one reader lacks, a case on another grid), each case's consensus and statistics,
// the summary; the dataset in 4 shards run as 4 processes at once, merged, gives the very bytes of
// one process's report and the same consensus files; a missing shard, a doubled case and a file
// that is not a report are refused by name.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "RunCommand.h"
#include "TempDir.h"
#include "core/io/LabelMapFileIO.h"
#include "core/jobs/ProgressSink.h"
#include "core/metrics/DatasetConsensus.h"

namespace delineate::core {
namespace {

namespace fs = std::filesystem;

ImageGeometry consensusGrid(std::size_t k = 6) {
  ImageGeometry g;
  g.size = {12, 12, k};
  return g;
}

// Reader r's lesion in case c: a box whose right edge moves with the reader.
LabelMap lesion(int c, int r, std::size_t slices = 6) {
  Segment s = defaultSegment(1);
  s.name = "lesion";
  LabelMap m("reader", consensusGrid(slices), {s});
  for (std::size_t k = 1; k < 5; ++k) {
    for (std::size_t j = 2; j < 9; ++j) {
      for (std::size_t i = std::size_t(1 + c % 3); i < std::size_t(7 + r + c % 2); ++i) {
        m.mutableData()[m.index(i, j, k)] = 1;
      }
    }
  }
  return m;
}

// Seven cases c0..c6; reader 3 has no c3; reader 2's c5 is on another grid.
void writeReaders(const fs::path& root) {
  for (int r = 0; r < 3; ++r) {
    const fs::path folder = root / ("reader" + std::to_string(r + 1));
    fs::create_directories(folder);
    for (int c = 0; c < 7; ++c) {
      if (r == 2 && c == 3) {
        continue;
      }
      writeLabelMapFiles(lesion(c, r, r == 1 && c == 5 ? 7 : 6),
                         folder / ("c" + std::to_string(c) + ".nii.gz"));
    }
  }
}

std::string bytesOf(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(DatasetConsensus, EveryCaseWithItsProblemsAndASummary) {
  test::TempDir dir;
  writeReaders(dir.path());
  DatasetConsensusOptions options;
  options.consensus.method = ConsensusMethod::Vote;
  options.out = dir / "out";
  NullProgress progress;
  const auto report =
      datasetConsensus({dir / "reader1", dir / "reader2", dir / "reader3"}, options, progress);
  ASSERT_EQ(report["cases"].size(), 7u);
  EXPECT_EQ(report["method"], "vote");
  const auto& c3 = report["cases"][3];
  EXPECT_EQ(c3["case"], "c3");
  EXPECT_NE(c3["problem"].get<std::string>().find("no label map in"), std::string::npos);
  EXPECT_NE(c3["problem"].get<std::string>().find("reader3"), std::string::npos);
  EXPECT_NE(report["cases"][5]["problem"].get<std::string>().find("grid"), std::string::npos)
      << report["cases"][5]["problem"];
  EXPECT_FALSE(fs::exists(dir / "out/c3.nii.gz"));
  // Case 0: the boxes end at i 7, 8, 9; the vote keeps what two of three marked (i < 8).
  const LabelMap c0 = readLabelMapFiles(dir / "out/c0.nii.gz");
  EXPECT_EQ(c0.at(6, 4, 2), 1);
  EXPECT_EQ(c0.at(7, 4, 2), 1);
  EXPECT_EQ(c0.at(8, 4, 2), 0);
  EXPECT_EQ(report["cases"][0]["file"], "c0.nii.gz");
  // Reader 1 marked only what the consensus has: sensitivity below 1, specificity 1.
  EXPECT_EQ(report["summary"][0]["reader"], (dir / "reader1").string());
  const auto& reader1 = report["summary"][0]["labels"][0];
  EXPECT_EQ(reader1["label"], 1);
  EXPECT_EQ(reader1["cases"], 5);
  EXPECT_LT(reader1["mean_sensitivity"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(reader1["mean_specificity"].get<double>(), 1.0);
}

#ifdef DELINEATE_CLI
TEST(DatasetConsensus, FourShardsMergeIntoTheOneProcessReport) {
  test::TempDir dir;
  writeReaders(dir.path());
  const std::string cli = DELINEATE_CLI;
  const std::string readers = " consensus --method staple --dataset '" +
                              (dir / "reader1").string() + "' '" + (dir / "reader2").string() +
                              "' '" + (dir / "reader3").string() + "'";
  const auto part = [&](int k) { return (dir / ("part-" + std::to_string(k) + ".json")).string(); };
  std::string out;
  ASSERT_EQ(test::runCommand(cli + readers + " --out '" + (dir / "one").string() + "' --json '" +
                                 (dir / "one.json").string() + "'",
                             &out),
            0)
      << out;
  EXPECT_NE(out.find("7 cases, 2 with a problem"), std::string::npos) << out;
  std::string shards;
  for (int k = 1; k <= 4; ++k) {
    shards += cli + readers + " --out '" + (dir / "sharded").string() + "' --shard " +
              std::to_string(k) + "/4 --json '" + part(k) + "' & ";
  }
  ASSERT_EQ(test::runCommand("( " + shards + "wait )", &out), 0) << out;
  for (int k = 1; k <= 4; ++k) {
    ASSERT_TRUE(fs::exists(part(k))) << out;
  }
  ASSERT_EQ(
      test::runCommand(cli + " consensus --merge '" + part(3) + "' '" + part(1) + "' '" + part(4) +
                           "' '" + part(2) + "' --json '" + (dir / "merged.json").string() + "'",
                       &out),
      0)
      << out;
  EXPECT_EQ(bytesOf(dir / "merged.json"), bytesOf(dir / "one.json"));
  for (const char* c : {"c0", "c1", "c2", "c4", "c6"}) {
    const std::string file = std::string(c) + ".nii.gz";
    ASSERT_TRUE(fs::exists(dir / "one" / file)) << file;
    EXPECT_EQ(bytesOf(dir / "sharded" / file), bytesOf(dir / "one" / file)) << file;
  }

  EXPECT_EQ(test::runCommand(cli + " consensus --merge '" + part(1) + "' '" + part(2) + "' '" +
                                 part(4) + "' --json '" + (dir / "x.json").string() + "'",
                             &out),
            1);
  EXPECT_NE(out.find("shards missing: 3/4"), std::string::npos) << out;
  EXPECT_EQ(test::runCommand(cli + " consensus --merge '" + part(1) + "' '" + part(1) + "' '" +
                                 part(2) + "' '" + part(3) + "' '" + part(4) + "' --json '" +
                                 (dir / "x.json").string() + "'",
                             &out),
            1);
  EXPECT_NE(out.find("is in two shards"), std::string::npos) << out;
  std::ofstream(dir / "other.json") << R"({"cases": []})";
  EXPECT_EQ(test::runCommand(cli + " consensus --merge '" + (dir / "other.json").string() +
                                 "' --json '" + (dir / "x.json").string() + "'",
                             &out),
            1);
  EXPECT_NE(out.find("other.json: not a dataset consensus report"), std::string::npos) << out;
  EXPECT_EQ(test::runCommand(cli + readers + " --out x --json x.json --shard 0/4", &out), 2) << out;
}
#endif

}  // namespace
}  // namespace delineate::core
