// The upload window's work without the window (core/upload/DatasetCaseJobs): a folder of two
// good cases and one whose label the server does not know; Check finds the one error and names
// the file, Send queues the good ones once (the same bytes again are already queued), Export
// writes them as an MSD dataset, and snapshotEach keeps the folder as the snapshot the window
// shows.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "TempDir.h"
#include "UploadTestSupport.h"
#include "core/dataset/DatasetStore.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/VolumeFileIO.h"
#include "core/jobs/ProgressSink.h"
#include "core/upload/DatasetCaseJobs.h"
#include "core/upload/UploadQueue.h"

namespace delineate::core::upload {
namespace {

namespace fs = std::filesystem;

PrepareOptions spleenSchema() {
  PrepareOptions o;
  o.schema = {{"background", 0, true}, {"spleen", 1, false}};
  return o;
}

// case1, case2: spleen; case3: kidney, which the server does not know.
std::vector<DatasetCase> writeFolder(const fs::path& dir) {
  fs::create_directories(dir);
  for (int c = 1; c <= 3; ++c) {
    const auto image = test::boxImage(c);
    const std::string stem = "case" + std::to_string(c);
    writeVolumeFile(*image, dir / (stem + ".nii.gz"));
    writeLabelMapFiles(test::boxLabel(*image, 1, c == 3 ? "kidney" : "spleen"),
                       dir / (stem + "_labels.nii.gz"));
  }
  return findDatasetCases(dir);
}

TEST(DatasetCaseJobs, CheckQueueAndExportTheCasesThatPass) {
  test::TempDir dir;
  const std::vector<DatasetCase> cases = writeFolder(dir / "cases");
  ASSERT_EQ(cases.size(), 3u);
  NullProgress progress;
  const auto checked = checkCases(cases, spleenSchema(), progress);
  ASSERT_EQ(checked.size(), 3u);
  std::vector<bool> skip;
  for (const CaseOutcome& c : checked) {
    EXPECT_EQ(c.result, CaseOutcome::Result::Checked);
    skip.push_back(!c.findings.empty());
  }
  EXPECT_EQ(skip, (std::vector<bool>{false, false, true}));
  EXPECT_NE(checked[2].findings.front().message.find("case3_labels"), std::string::npos)
      << checked[2].findings.front().message;

  const auto queued = queueCases(cases, skip, spleenSchema(), dir / "queue", progress);
  ASSERT_EQ(queued.size(), 2u) << "the case with errors is left out";
  for (const CaseOutcome& c : queued) {
    EXPECT_EQ(c.result, CaseOutcome::Result::Queued);
  }
  EXPECT_EQ(UploadQueue(dir / "queue").counts().pending, 2);
  const auto again = queueCases(cases, skip, spleenSchema(), dir / "queue", progress);
  for (const CaseOutcome& c : again) {
    EXPECT_EQ(c.result, CaseOutcome::Result::AlreadyQueued);
  }
  EXPECT_EQ(UploadQueue(dir / "queue").counts().pending, 2) << "nothing sent twice";

  const auto written = exportCases(cases, {}, spleenSchema(), dir / "Task01_Spleen", progress);
  ASSERT_EQ(written.size(), 3u);
  EXPECT_EQ(written[0].result, CaseOutcome::Result::Written);
  EXPECT_EQ(written[2].result, CaseOutcome::Result::Refused);
  std::ifstream index(dir / "Task01_Spleen/dataset.json");
  EXPECT_EQ(nlohmann::json::parse(index)["numTraining"], 2);

  const auto snapshots = dataset::snapshotEach({dir / "cases"}, "sent to http://x", progress);
  ASSERT_EQ(snapshots.size(), 1u);
  const auto log = dataset::DatasetStore(dir / "cases").log();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(snapshots[0].second, log[0].id);
  EXPECT_EQ(log[0].message, "sent to http://x");
}

}  // namespace
}  // namespace delineate::core::upload
