// Correction records: the proposal snapshot, the measured correction of a label, the JSON file
// and its name beside the label map.
#include "core/metrics/CorrectionRecord.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>

#include "MetricsTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/metrics/CorrectionMeasurement.h"
#include "core/metrics/LabelComparison.h"
#include "core/metrics/ProposalSnapshot.h"

using namespace delineate::core;
using delineate::test::metricsGrid;
using delineate::test::paintBox;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

CorrectionRecord sampleRecord() {
  CorrectionRecord r;
  r.labelMap = "/data/case 1/brain_seg.nii.gz";
  r.image = "/data/case 1/t1.nii.gz";
  r.reader = "ann ótä";
  r.backend = "MONAI Label";
  r.model = "deepedit \"v2\"";
  r.acceptedAt = utcTimestamp(std::chrono::system_clock::from_time_t(1714566896));
  r.savedAt = "2024-05-01T12:40:00Z";
  r.clicks = 7;
  r.strokes = 12;
  r.tools = {{"brush", 9}, {"eraser", 3}, {"ai.click", 7}};
  r.activeEditingSeconds = 93.25;
  CorrectionLabel a;
  a.label = 1;
  a.proposalLabel = 3;
  a.segment = "tumour";
  a.dice = 0.8;
  a.hd95Mm = 2;
  a.hausdorffMm = 2.5;
  a.assdMm = 0.3360655737704918;
  a.proposalVoxels = 500;
  a.finalVoxels = 500;
  a.addedVoxels = 100;
  a.removedVoxels = 100;
  a.slices = {{5, 0, 100}, {10, 100, 0}};
  CorrectionLabel b;
  b.label = 2;
  b.proposalLabel = 2;
  b.segment = "oedema";
  b.dice = 0;
  b.hd95Mm = b.hausdorffMm = b.assdMm = kInf;
  b.proposalVoxels = 40;
  b.removedVoxels = 40;
  b.slices = {{0, 0, 40}};
  r.labels = {a, b};
  return r;
}

}  // namespace

TEST(CorrectionRecord, SnapshotKeepsTheLabelInItsTightBox) {
  const ImageGeometry g = metricsGrid({20, 18, 16}, {1, 1, 2});
  LabelMap proposal("proposal", g, {defaultSegment(3)});
  paintBox(proposal, {5, 6, 7}, {9, 10, 12}, 3);  // 4 x 4 x 5 = 80
  paintBox(proposal, {0, 0, 0}, {2, 2, 2}, 1);    // another label
  paintBox(proposal, {15, 15, 15}, {16, 16, 16}, 3);
  const ProposalSnapshot all = captureProposal(proposal, 3, VoxelBox::whole(g.size));
  EXPECT_EQ(all.voxels, 81u);
  EXPECT_EQ(all.box, (VoxelBox{{5, 6, 7}, {16, 16, 16}}));
  EXPECT_EQ(all.segment, "Segment 3");
  EXPECT_EQ(all.name, "proposal");
  EXPECT_TRUE(all.contains(15, 15, 15));
  EXPECT_TRUE(all.contains(5, 6, 7));
  EXPECT_FALSE(all.contains(9, 6, 7));
  EXPECT_FALSE(all.contains(0, 0, 0));

  // A smaller box: the voxel at (15, 15, 15) is left out, and the box shrinks to the cube.
  const ProposalSnapshot part = captureProposal(proposal, 3, {{0, 0, 0}, {12, 12, 100}});
  EXPECT_EQ(part.voxels, 80u);
  EXPECT_EQ(part.box, (VoxelBox{{5, 6, 7}, {9, 10, 12}}));
  EXPECT_EQ(part.mask.size(), 80u);
  EXPECT_TRUE(captureProposal(proposal, 7, VoxelBox::whole(g.size)).box.empty());
  EXPECT_THROW(captureProposal(proposal, 0, VoxelBox::whole(g.size)), Error);
}

TEST(CorrectionRecord, SnapshotPaintsBackIntoALabelMapOnItsGrid) {
  const ImageGeometry g = metricsGrid({20, 18, 16}, {1, 1, 2});
  LabelMap proposal("proposal", g, {defaultSegment(3)});
  paintBox(proposal, {5, 6, 7}, {9, 10, 12}, 3);
  paintBox(proposal, {0, 0, 0}, {2, 2, 2}, 1);
  const ProposalSnapshot snapshot = captureProposal(proposal, 3, VoxelBox::whole(g.size));
  LabelMap back("accepted", g);
  back.mutableData()[back.index(19, 17, 15)] = 9;  // left alone
  paintSnapshot(snapshot, 2, back);
  std::size_t twos = 0;
  for (std::size_t n = 0; n < g.voxelCount(); ++n) {
    twos += back.data()[n] == 2;
    if (proposal.data()[n] == 3) {
      EXPECT_EQ(back.data()[n], 2) << n;
    }
  }
  EXPECT_EQ(twos, 80u);
  EXPECT_EQ(back.data()[back.index(19, 17, 15)], 9);
  EXPECT_EQ(back.data()[back.index(0, 0, 0)], 0) << "the other label is not painted";
  LabelMap other("other", metricsGrid({20, 18, 15}, {1, 1, 2}));
  EXPECT_THROW(paintSnapshot(snapshot, 2, other), Error);
}

TEST(CorrectionRecord, CubeGrownByOneSliceAndCutByAnotherHasExactChanges) {
  const ImageGeometry g = metricsGrid({20, 20, 20}, {0.9, 0.9, 2.0});
  LabelMap proposal("proposal", g, {defaultSegment(3)});
  paintBox(proposal, {5, 5, 5}, {15, 15, 10}, 3);  // k 5..9, 100 voxels per slice
  LabelMap corrected("final", g);
  corrected.segments() = {defaultSegment(1)};
  corrected.segments()[0].name = "tumour";
  paintBox(corrected, {5, 5, 6}, {15, 15, 11}, 1);  // k 6..10: slice 5 removed, slice 10 added
  paintBox(corrected, {0, 0, 0}, {3, 3, 3}, 2);     // another label: ignored
  const ProposalSnapshot snapshot = captureProposal(proposal, 3, VoxelBox::whole(g.size));
  NullProgress progress;
  const CorrectionLabel c = measureCorrection(snapshot, corrected, 1, progress);
  EXPECT_EQ(c.label, 1);
  EXPECT_EQ(c.proposalLabel, 3);
  EXPECT_EQ(c.segment, "tumour");
  EXPECT_EQ(c.proposalVoxels, 500u);
  EXPECT_EQ(c.finalVoxels, 500u);
  EXPECT_EQ(c.addedVoxels, 100u);
  EXPECT_EQ(c.removedVoxels, 100u);
  EXPECT_EQ(c.slices, (std::vector<CorrectionSlice>{{5, 0, 100}, {10, 100, 0}}));
  EXPECT_DOUBLE_EQ(c.dice, 0.8);
  EXPECT_NEAR(c.hausdorffMm, 2.0, 1e-9);  // one slice along k

  // The same as the full-size comparison of the two masks.
  LabelMap reference("reference", g), test("test", g);
  paintBox(reference, {5, 5, 5}, {15, 15, 10}, 1);
  paintBox(test, {5, 5, 6}, {15, 15, 11}, 1);
  const LabelMetrics full = compareLabelMaps(reference, test, {}, progress).front();
  EXPECT_DOUBLE_EQ(c.dice, full.overlap.dice);
  EXPECT_DOUBLE_EQ(c.hd95Mm, full.surface->hausdorffPercentileMm);
  EXPECT_DOUBLE_EQ(c.hausdorffMm, full.surface->hausdorffMm);
  EXPECT_DOUBLE_EQ(c.assdMm, full.surface->averageSymmetricMm);
}

TEST(CorrectionRecord, ChangesOutsideTheProposalBoxAndEmptyMasks) {
  const ImageGeometry g = metricsGrid({16, 16, 16}, {1, 1, 1});
  LabelMap proposal("proposal", g);
  paintBox(proposal, {2, 2, 2}, {6, 6, 6}, 1);  // 64
  LabelMap corrected("final", g);
  paintBox(corrected, {2, 2, 2}, {6, 6, 6}, 1);
  paintBox(corrected, {12, 12, 14}, {14, 14, 15}, 1);  // 4 voxels far away, on slice 14
  const ProposalSnapshot snapshot = captureProposal(proposal, 1, VoxelBox::whole(g.size));
  NullProgress progress;
  const CorrectionLabel grown = measureCorrection(snapshot, corrected, 1, progress);
  EXPECT_EQ(grown.slices, (std::vector<CorrectionSlice>{{14, 4, 0}}));
  EXPECT_DOUBLE_EQ(grown.dice, 128.0 / 132.0);
  EXPECT_EQ(grown.segment, "label 1");

  // Everything deleted: Dice 0, infinite distances.
  LabelMap cleared("cleared", g);
  const CorrectionLabel gone = measureCorrection(snapshot, cleared, 1, progress);
  EXPECT_EQ(gone.removedVoxels, 64u);
  EXPECT_EQ(gone.finalVoxels, 0u);
  EXPECT_EQ(gone.slices.size(), 4u);
  EXPECT_EQ(gone.dice, 0.0);
  EXPECT_TRUE(std::isinf(gone.hd95Mm));

  // Neither has the label: they agree.
  const ProposalSnapshot none = captureProposal(cleared, 1, VoxelBox::whole(g.size));
  const CorrectionLabel nothing = measureCorrection(none, cleared, 1, progress);
  EXPECT_EQ(nothing.dice, 1.0);
  EXPECT_EQ(nothing.hausdorffMm, 0.0);
  EXPECT_TRUE(nothing.slices.empty());

  LabelMap other("other", metricsGrid({16, 16, 17}, {1, 1, 1}));
  try {
    measureCorrection(snapshot, other, 1, progress);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("16x16x16 vs 16x16x17"), std::string::npos) << e.what();
  }
  EXPECT_THROW(measureCorrection(snapshot, corrected, 0, progress), Error);
  CancelToken token;
  token.cancel();
  NullProgress cancelled(token);
  EXPECT_THROW(measureCorrection(snapshot, corrected, 1, cancelled), CancelledError);
}

TEST(CorrectionRecord, JsonFileRoundTrips) {
  delineate::test::TempDir dir;
  const CorrectionRecord r = sampleRecord();
  const std::filesystem::path path = correctionRecordPath(dir / "brain_seg.nii.gz");
  EXPECT_EQ(path.filename(), "brain_seg.correction.json");
  writeCorrectionRecord(r, path);
  const CorrectionRecord back = readCorrectionRecord(path);
  EXPECT_EQ(back, r);
  EXPECT_EQ(back.acceptedAt, "2024-05-01T12:34:56Z");
  // Nothing but the file is left in the folder (the temporary was renamed over it).
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator{}),
            1);

  const std::string text = correctionRecordJson(r);
  EXPECT_NE(text.find("\"format\": \"delineate-correction-record\""), std::string::npos);
  EXPECT_NE(text.find("\"hd95_mm\": \"inf\""), std::string::npos);
  EXPECT_NE(text.find("\"brush\": 9"), std::string::npos);
  EXPECT_EQ(correctionRecordFromJson(text, "x"), r);
}

TEST(CorrectionRecord, BadFilesAreErrorsNamingTheFile) {
  delineate::test::TempDir dir;
  const std::string full = correctionRecordJson(sampleRecord());
  const std::pair<std::string, ErrorKind> cases[] = {
      {full.substr(0, full.size() / 2), ErrorKind::InvalidInput},  // truncated
      {"garbage \x01\x02", ErrorKind::InvalidInput},
      {"", ErrorKind::InvalidInput},
      {"{}", ErrorKind::InvalidInput},
      {"[1, 2]", ErrorKind::InvalidInput},
      {R"({"format": "delineate-correction-record", "version": 1, "labels": [{"label": "x"}]})",
       ErrorKind::InvalidInput},
      {R"({"format": "delineate-correction-record", "version": 1, "labels": [{"label": 70000}]})",
       ErrorKind::InvalidInput},
      {R"({"format": "delineate-correction-record", "version": 1, "clicks": "many",
           "labels": []})",
       ErrorKind::InvalidInput},
      {R"({"format": "delineate-correction-record", "version": 1, "tools": [1], "labels": []})",
       ErrorKind::InvalidInput},
      {R"({"format": "delineate-correction-record", "version": 2, "labels": []})",
       ErrorKind::Unsupported},
  };
  int n = 0;
  for (const auto& [text, kind] : cases) {
    const std::filesystem::path path = dir / ("bad" + std::to_string(n++) + ".correction.json");
    std::ofstream(path, std::ios::binary) << text;
    try {
      readCorrectionRecord(path);
      ADD_FAILURE() << "no error for: " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << text << ": " << e.what();
      EXPECT_EQ(e.where(), path.string());
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
  }
  try {
    readCorrectionRecord(dir / "missing.correction.json");
    ADD_FAILURE() << "no error for a missing file";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_EQ(e.where(), (dir / "missing.correction.json").string());
  }
}

TEST(CorrectionRecord, FileNameSitsBesideTheLabelMap) {
  const auto name = [](const char* labelMap) { return correctionRecordPath(labelMap).string(); };
  EXPECT_EQ(name("/data/brain_seg.nii.gz"), "/data/brain_seg.correction.json");
  EXPECT_EQ(name("/data/brain_seg.nii"), "/data/brain_seg.correction.json");
  EXPECT_EQ(name("/data/brain_seg.nrrd"), "/data/brain_seg.correction.json");
  EXPECT_EQ(name("/data/brain.seg.nrrd"), "/data/brain.correction.json");
  EXPECT_EQ(name("/data/brain_seg.dcm"), "/data/brain_seg.correction.json");
  EXPECT_EQ(name("/data/Brain.NII.GZ"), "/data/Brain.correction.json");
  EXPECT_EQ(name("/data/v1.2/liver.v3.mha"), "/data/v1.2/liver.v3.correction.json");
  EXPECT_EQ(name("/data/labels.tiff"), "/data/labels.correction.json");
  EXPECT_EQ(name("/data/labels"), "/data/labels.correction.json");
  EXPECT_EQ(name("relative.nii.gz"), "relative.correction.json");
}

TEST(CorrectionRecord, TimestampsAreIsoUtc) {
  EXPECT_EQ(utcTimestamp(std::chrono::system_clock::from_time_t(0)), "1970-01-01T00:00:00Z");
  EXPECT_EQ(utcTimestamp(std::chrono::system_clock::from_time_t(1714566896)),
            "2024-05-01T12:34:56Z");
}

TEST(CorrectionRecord, SummaryNamesTheAiTheClicksAndTheTools) {
  CorrectionRecord r;
  EXPECT_EQ(correctionSummary(r), "");
  r.backend = "MONAI Label at http://gpu:8000";
  r.model = "deepedit";
  r.reader = "ann";
  r.clicks = 1;
  r.tools = {{"tool.brush", 4}, {"tool.eraser", 1}};
  EXPECT_EQ(correctionSummary(r),
            "reader ann; AI: MONAI Label at http://gpu:8000, model deepedit; 1 click; tools: "
            "tool.brush 4, tool.eraser 1");
  r.backend.clear();
  r.reader.clear();
  r.clicks = 0;
  EXPECT_EQ(correctionSummary(r), "tools: tool.brush 4, tool.eraser 1");
}
