// Dataset snapshots: ids that depend on content only (not on the order files were made in, nor
// on the machine's folder), what a snapshot stores once, the log, the diff with the Dice of a
// changed label map, a checkout that gives the exact bytes back, damage named, and the CLI.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/dataset/DatasetStore.h"
#include "core/dataset/SnapshotDiff.h"
#include "core/deid/DeidBatch.h"
#include "core/deid/DeidentificationRecord.h"
#include "core/io/LabelMapFileIO.h"
#include "core/jobs/ProgressSink.h"
#include "core/metrics/AdjudicationRecord.h"
#include "core/metrics/CorrectionRecord.h"

using namespace delineate::core;
using namespace delineate::core::dataset;
namespace fs = std::filesystem;

namespace {

void writeDatasetFile(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

std::string snapshotBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A 20^3 label map with a cube of label 1 ("liver") of side `side` and a cube of label 2.
LabelMap cubes(int side) {
  ImageGeometry g;
  g.size = {20, 20, 20};
  Segment liver = defaultSegment(1);
  liver.name = "liver";
  Segment spleen = defaultSegment(2);
  spleen.name = "spleen";
  LabelMap m("labels", g, {liver, spleen});
  for (std::size_t k = 0; k < 20; ++k) {
    for (std::size_t j = 0; j < 20; ++j) {
      for (std::size_t i = 0; i < 20; ++i) {
        if (i < std::size_t(side) && j < std::size_t(side) && k < std::size_t(side)) {
          m.mutableData()[m.index(i, j, k)] = 1;
        } else if (i >= 15 && j >= 15 && k >= 15) {
          m.mutableData()[m.index(i, j, k)] = 2;
        }
      }
    }
  }
  return m;
}

void writeCaseLabels(const LabelMap& labels, const fs::path& file) {
  fs::create_directories(file.parent_path());
  writeLabelMapFiles(labels, file);
}

}  // namespace

TEST(DatasetSnapshot, TheSameContentGivesTheSameIdAnywhereInAnyOrder) {
  delineate::test::TempDir dir;
  NullProgress quiet;
  writeDatasetFile(dir / "a/imagesTr/case1.txt", "image one");
  writeDatasetFile(dir / "a/labelsTr/case1.txt", "label one");
  writeDatasetFile(dir / "a/dataset.json", "{}");
  // The same files made in another order, in another folder.
  writeDatasetFile(dir / "b/dataset.json", "{}");
  writeDatasetFile(dir / "b/labelsTr/case1.txt", "label one");
  writeDatasetFile(dir / "b/imagesTr/case1.txt", "image one");
  const auto first = DatasetStore(dir / "a").snapshot("first", quiet);
  const auto second = DatasetStore(dir / "b").snapshot("elsewhere", quiet);
  EXPECT_EQ(first.id, second.id);
  EXPECT_EQ(first.id.size(), 64u);
  EXPECT_TRUE(first.changed);
  EXPECT_EQ(first.newObjects, 3u);

  // Unchanged: the same id, nothing added to the log.
  const auto again = DatasetStore(dir / "a").snapshot("again", quiet);
  EXPECT_EQ(again.id, first.id);
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(DatasetStore(dir / "a").log().size(), 1u);

  // A copy of a file is stored once; a change gives a new id whose parent is the last.
  writeDatasetFile(dir / "a/imagesTr/case2.txt", "image one");
  const auto third = DatasetStore(dir / "a").snapshot("case 2", quiet);
  EXPECT_NE(third.id, first.id);
  EXPECT_EQ(third.newObjects, 0u) << "case2 has case1's bytes";
  const auto log = DatasetStore(dir / "a").log();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].id, third.id);
  EXPECT_EQ(log[0].parent, first.id);
  EXPECT_EQ(log[0].message, "case 2");
  EXPECT_EQ(log[1].parent, "");
  EXPECT_EQ(DatasetStore(dir / "a").read(third.id.substr(0, 8)).files.size(), 4u);
  try {
    DatasetStore(dir / "a").read("ffffffff");
    ADD_FAILURE() << "an unknown id was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no snapshot ffffffff"), std::string::npos) << e.what();
  }
}

TEST(DatasetSnapshot, TheDiffNamesTheFilesAndTheDiceOfAChangedLabelMap) {
  delineate::test::TempDir dir;
  NullProgress quiet;
  const fs::path data = dir / "data";
  writeDatasetFile(data / "imagesTr/case1.txt", "image one");
  writeDatasetFile(data / "imagesTr/gone.txt", "to be removed");
  writeCaseLabels(cubes(10), data / "labelsTr/case1.nii.gz");
  const DatasetStore store(data);
  const auto before = store.snapshot("reader 1", quiet);
  fs::remove(data / "imagesTr/gone.txt");
  writeDatasetFile(data / "imagesTr/case2.txt", "image two");
  writeCaseLabels(cubes(8), data / "labelsTr/case1.nii.gz");  // the liver corrected
  const auto after = store.snapshot("corrected", quiet);
  const SnapshotDiff d = diffSnapshots(store, before.id, after.id, quiet);
  EXPECT_EQ(d.added, std::vector<std::string>{"imagesTr/case2.txt"});
  EXPECT_EQ(d.removed, std::vector<std::string>{"imagesTr/gone.txt"});
  ASSERT_EQ(d.changed.size(), 1u) << "the segment table is the same";
  EXPECT_EQ(d.changed[0].path, "labelsTr/case1.nii.gz");
  ASSERT_EQ(d.changed[0].labels.size(), 2u) << d.changed[0].note;
  EXPECT_EQ(d.changed[0].labels[0].name, "liver");
  EXPECT_NEAR(d.changed[0].labels[0].dice, 2.0 * 512 / (1000 + 512), 1e-12);
  EXPECT_EQ(d.changed[0].labels[1].name, "spleen");
  EXPECT_DOUBLE_EQ(d.changed[0].labels[1].dice, 1.0);
  EXPECT_TRUE(looksLikeLabelMap("labelsTr/case1.nii.gz"));
  EXPECT_TRUE(looksLikeLabelMap("case1_gt.nrrd"));
  EXPECT_FALSE(looksLikeLabelMap("imagesTr/case1.nii.gz"));
  EXPECT_FALSE(looksLikeLabelMap("length.nii.gz"));
}

TEST(DatasetSnapshot, ACheckoutGivesTheExactBytesAndDamageIsNamed) {
  delineate::test::TempDir dir;
  NullProgress quiet;
  const fs::path data = dir / "data";
  writeDatasetFile(data / "imagesTr/case1.txt", std::string("\0binary\xff", 8));
  writeCaseLabels(cubes(6), data / "labelsTr/case1.nii.gz");
  const DatasetStore store(data);
  const auto taken = store.snapshot("", quiet);
  writeDatasetFile(data / "imagesTr/case1.txt", "changed afterwards");
  store.checkout(taken.id, dir / "out", quiet);
  EXPECT_EQ(snapshotBytes(dir / "out/imagesTr/case1.txt"), std::string("\0binary\xff", 8));
  EXPECT_EQ(
      snapshotBytes(dir / "out/labelsTr/case1.nii.gz"),
      snapshotBytes(store.objectPath(store.read(taken.id).find("labelsTr/case1.nii.gz")->sha256)));
  EXPECT_FALSE(fs::exists(dir / "out" / DatasetStore::kFolder));
  EXPECT_THROW(store.checkout(taken.id, dir / "out", quiet), Error) << "into a folder with files";

  const std::string sha = store.read(taken.id).find("imagesTr/case1.txt")->sha256;
  fs::permissions(store.objectPath(sha), fs::perms::owner_write, fs::perm_options::add);
  writeDatasetFile(store.objectPath(sha), "bit rot");
  try {
    store.checkout(taken.id, dir / "out2", quiet);
    ADD_FAILURE() << "a damaged copy was checked out";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("imagesTr/case1.txt is damaged"), std::string::npos)
        << e.what();
  }
}

TEST(DatasetCli, SnapshotLogDiffAndCheckout) {
  delineate::test::TempDir dir;
  const fs::path data = dir / "data";
  writeCaseLabels(cubes(10), data / "labelsTr/case1.nii.gz");
  const std::string cli = DELINEATE_CLI;
  std::string first, second, printed;
  ASSERT_EQ(
      delineate::test::runCommand(
          cli + " dataset snapshot " + data.string() + " --message 'reader 1' 2>/dev/null", &first),
      0)
      << first;
  first = first.substr(0, 64);
  writeCaseLabels(cubes(8), data / "labelsTr/case1.nii.gz");
  ASSERT_EQ(delineate::test::runCommand(cli + " dataset snapshot " + data.string() + " 2>/dev/null",
                                        &second),
            0);
  second = second.substr(0, 64);
  ASSERT_EQ(delineate::test::runCommand(
                cli + " dataset log --root " + data.string() + " --json 2>/dev/null", &printed),
            0);
  const nlohmann::json log = nlohmann::json::parse(printed);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1]["message"], "reader 1");
  EXPECT_EQ(log[0]["parent"], first);
  ASSERT_EQ(delineate::test::runCommand(cli + " dataset diff " + first.substr(0, 6) + " " +
                                            second.substr(0, 6) + " --root " + data.string() +
                                            " 2>/dev/null",
                                        &printed),
            0);
  EXPECT_NE(printed.find("changed  labelsTr/case1.nii.gz  liver 0.677"), std::string::npos)
      << printed;
  ASSERT_EQ(delineate::test::runCommand(cli + " dataset checkout " + first + " " +
                                        (dir / "v1").string() + " --root " + data.string()),
            0);
  EXPECT_EQ(readLabelMapFiles(dir / "v1/labelsTr/case1.nii.gz").segment(1)->name, "liver");
  EXPECT_EQ(delineate::test::runCommand(cli + " dataset checkout abcd " + (dir / "v2").string() +
                                        " --root " + data.string() + " 2>/dev/null"),
            1);
  EXPECT_EQ(delineate::test::runCommand(cli + " dataset log 2>/dev/null"), 2);
}

// Past one machine: a snapshot taken by 4 shard processes at once on the dataset's folder, then
// merged, is the snapshot one process takes of the same content (the same id, the same files
// back); a missing shard or a dataset changed since the shards listed it is refused by name.
TEST(DatasetCli, FourShardsMakeTheOneProcessSnapshot) {
  delineate::test::TempDir dir;
  const fs::path data = dir / "data", copy = dir / "copy";
  for (int c = 1; c <= 9; ++c) {
    writeCaseLabels(cubes(4 + c), data / ("labelsTr/case" + std::to_string(c) + ".nii.gz"));
    writeDatasetFile(data / ("imagesTr/case" + std::to_string(c) + ".txt"),
                     "image " + std::to_string(c % 3));  // some contents the same
  }
  fs::copy(data, copy, fs::copy_options::recursive);
  const std::string cli = DELINEATE_CLI;
  std::string one, out;
  ASSERT_EQ(delineate::test::runCommand(cli + " dataset snapshot " + copy.string() + " 2>&1", &one),
            0)
      << one;
  one = one.substr(0, 64);
  const auto part = [&](int k) { return (dir / ("part-" + std::to_string(k) + ".json")).string(); };
  std::string shards;
  for (int k = 1; k <= 4; ++k) {
    shards += cli + " dataset snapshot " + data.string() + " --shard " + std::to_string(k) +
              "/4 --part " + part(k) + " & ";
  }
  ASSERT_EQ(delineate::test::runCommand("( " + shards + "wait )", &out), 0) << out;
  EXPECT_EQ(delineate::test::runCommand(cli + " dataset snapshot " + data.string() + " --merge " +
                                            part(1) + " " + part(2) + " " + part(4) + " 2>&1",
                                        &out),
            1);
  EXPECT_NE(out.find("shards missing: 3/4"), std::string::npos) << out;
  std::string merged;
  ASSERT_EQ(delineate::test::runCommand(cli + " dataset snapshot " + data.string() + " --merge " +
                                            part(3) + " " + part(1) + " " + part(4) + " " +
                                            part(2) + " --message sharded 2>&1",
                                        &merged),
            0)
      << merged;
  EXPECT_EQ(merged.substr(0, 64), one) << "the same content, the same id";
  const DatasetStore store(data);
  ASSERT_EQ(store.log().size(), 1u);
  EXPECT_EQ(store.log()[0].message, "sharded");
  EXPECT_EQ(store.read(one).files.size(), 27u);  // each label map has its segment table beside it
  ASSERT_EQ(delineate::test::runCommand(cli + " dataset checkout " + one + " " +
                                        (dir / "out").string() + " --root " + data.string()),
            0);
  for (int c = 1; c <= 9; ++c) {
    const std::string name = "labelsTr/case" + std::to_string(c) + ".nii.gz";
    EXPECT_EQ(snapshotBytes(dir / "out" / name), snapshotBytes(data / name)) << name;
  }
  // A file added after the shards listed the dataset: the merge is refused.
  writeDatasetFile(data / "imagesTr/case10.txt", "late");
  EXPECT_EQ(delineate::test::runCommand(cli + " dataset snapshot " + data.string() + " --merge " +
                                            part(1) + " " + part(2) + " " + part(3) + " " +
                                            part(4) + " 2>&1",
                                        &out),
            1);
  EXPECT_NE(out.find("the dataset changed since the shards listed it"), std::string::npos) << out;
}

// Per-label provenance: a label map saved with its correction record (the AI backend and model,
// the clicks and strokes that corrected it) is shown with it by `dataset show`; a damaged record
// is named, not fatal; the provenance does not change the snapshot's id.
TEST(DatasetCli, ShowGivesEachLabelMapsProvenanceFromItsCorrectionRecord) {
  delineate::test::TempDir dir;
  const fs::path data = dir / "data";
  writeCaseLabels(cubes(10), data / "labelsTr/case1.nii.gz");
  writeCaseLabels(cubes(6), data / "labelsTr/case2.nii.gz");
  CorrectionRecord r;
  r.labelMap = "case1.nii.gz";
  r.backend = "MONAI Label at http://gpu-box:8000";
  r.model = "deepedit_v2";
  r.modelVersion = "0.8.1";
  r.reader = "annotator7";
  r.acceptedAt = "2026-11-28T05:00:00Z";
  r.savedAt = "2026-11-28T05:04:00Z";
  r.clicks = 3;
  r.strokes = 7;
  r.activeEditingSeconds = 95;
  CorrectionLabel liver;
  liver.label = 1;
  liver.segment = "liver";
  liver.dice = 0.875;
  r.labels.push_back(liver);
  writeDatasetFile(data / "labelsTr/case1.correction.json", correctionRecordJson(r));
  writeDatasetFile(data / "labelsTr/case2.correction.json", "{not json");
  // The dataset came out of `delineate-cli deid` with dates kept.
  deid::DeidOptions kept;
  kept.retainLongitudinalModifiedDates = true;
  writeDatasetFile(data / "deidentification.json",
                   deid::deidentificationRecord(kept, deid::DeidSummary{}).dump());
  const DatasetStore store(data);
  NullProgress progress;
  const auto taken = store.snapshot("with provenance", progress);
  const Snapshot s = store.read(taken.id);
  ASSERT_EQ(s.provenance.size(), 2u);
  EXPECT_EQ(s.provenance[0].labelFile, "labelsTr/case1.nii.gz");
  EXPECT_EQ(s.provenance[0].model, "deepedit_v2");
  EXPECT_EQ(s.provenance[0].reader, "annotator7");
  EXPECT_EQ(s.provenance[0].clicks, 3);
  EXPECT_EQ(s.provenance[0].modelVersion, "0.8.1");
  EXPECT_EQ(s.provenance[0].deidentificationFile, "deidentification.json") << "the folder above";
  EXPECT_NE(s.provenance[0].deidentification.find("Retain Longitudinal"), std::string::npos)
      << s.provenance[0].deidentification;
  ASSERT_EQ(s.provenance[0].segmentDice.size(), 1u);
  EXPECT_DOUBLE_EQ(s.provenance[0].segmentDice[0].second, 0.875);
  EXPECT_NE(s.provenance[1].problem.find("case2.correction.json"), std::string::npos)
      << s.provenance[1].problem;
  EXPECT_EQ(snapshotId(s.files), taken.id) << "the id is the files' alone";

  const std::string cli = DELINEATE_CLI;
  std::string out;
  ASSERT_EQ(delineate::test::runCommand(cli + " dataset show " + taken.id.substr(0, 8) +
                                            " --root " + data.string() + " 2>&1",
                                        &out),
            0)
      << out;
  EXPECT_NE(out.find("  de-identified: Basic Application Confidentiality Profile; Retain "
                     "Longitudinal"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("AI: MONAI Label at http://gpu-box:8000, model deepedit_v2 version 0.8.1"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  reader annotator7\n"), std::string::npos) << out;
  EXPECT_NE(out.find("corrected with 3 clicks and 7 strokes in 95 s of editing"), std::string::npos)
      << out;
  EXPECT_NE(out.find("liver: Dice proposal -> final 0.875"), std::string::npos) << out;
  EXPECT_NE(out.find("case2.correction.json unreadable"), std::string::npos) << out;
  ASSERT_EQ(delineate::test::runCommand(cli + " dataset show " + taken.id + " --root " +
                                            data.string() + " --json 2>/dev/null",
                                        &out),
            0);
  const nlohmann::json shown = nlohmann::json::parse(out);
  EXPECT_EQ(shown["provenance"][0]["strokes"], 7);
  EXPECT_EQ(shown["provenance"][0]["model_version"], "0.8.1");
  EXPECT_EQ(shown["provenance"][0]["deidentification"]["file"], "deidentification.json");
  EXPECT_EQ(shown["files"].size(), s.files.size());
}

// A signed adjudicated map: the snapshot's provenance names the reviewer, the readers and whose
// version each disagreement region kept, in `dataset show` and its JSON.
TEST(DatasetCli, ShowGivesTheAdjudicationOfASignedMap) {
  delineate::test::TempDir dir;
  const fs::path data = dir / "data";
  writeCaseLabels(cubes(10), data / "labelsTr/case1.nii.gz");
  AdjudicationRecord a;
  a.structure = "liver";
  a.labelMap = "Adjudicated: liver";
  a.readers = {"Dr A", "Dr B"};
  a.readerTools = {"AI: built-in engine, model deepgrow", ""};
  a.reviewer = "Reviewer One";
  a.signedAt = "2026-11-28T09:00:00Z";
  a.regions = {{40, {1, 2, 3}, "Dr B", {0, 1}},
               {12, {5, 5, 5}, "Dr B", {0, 1}},
               {3, {9, 9, 9}, "edited", {0.5, 0.5}}};
  writeDatasetFile(data / "labelsTr/case1.adjudication.json", adjudicationRecordJson(a));
  NullProgress progress;
  const auto taken = DatasetStore(data).snapshot("adjudicated", progress);
  const Snapshot s = DatasetStore(data).read(taken.id);
  ASSERT_EQ(s.provenance.size(), 1u);
  EXPECT_EQ(s.provenance[0].reviewer, "Reviewer One");
  EXPECT_EQ(s.provenance[0].regionSources,
            (std::map<std::string, int>{{"Dr B", 2}, {"edited", 1}}));
  EXPECT_TRUE(s.provenance[0].recordFile.empty());

  const std::string cli = DELINEATE_CLI;
  std::string out;
  ASSERT_EQ(delineate::test::runCommand(
                cli + " dataset show " + taken.id + " --root " + data.string() + " 2>&1", &out),
            0)
      << out;
  EXPECT_NE(out.find("adjudicated by Reviewer One, signed 2026-11-28T09:00:00Z; readers Dr A (AI: "
                     "built-in engine, model deepgrow); Dr B; regions kept: Dr B 2; edited 1"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("\n  AI:"), std::string::npos) << "no correction record, no AI line" << out;
  ASSERT_EQ(delineate::test::runCommand(cli + " dataset show " + taken.id + " --root " +
                                            data.string() + " --json 2>/dev/null",
                                        &out),
            0);
  const nlohmann::json shown = nlohmann::json::parse(out);
  EXPECT_EQ(shown["provenance"][0]["adjudication"]["reviewer"], "Reviewer One");
  EXPECT_EQ(shown["provenance"][0]["adjudication"]["region_sources"]["edited"], 1);
}
