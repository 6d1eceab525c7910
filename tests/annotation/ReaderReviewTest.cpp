// The readers view's Qt-free logic on known readers: the structure's Dice matrix, stepping through
// the regions largest first, the region's description, the majority-vote start, taking one
// reader's version of a region (and only there), and the signed record saying whose version each
// region kept.
#include <gtest/gtest.h>

#include "LabelBoxes.h"
#include "annotation/review/ReaderReview.h"
#include "annotation/review/RegionAdoption.h"
#include "core/Error.h"

namespace delineate::annotation {
namespace {

core::ImageGeometry reviewGrid() {
  core::ImageGeometry g;
  g.size = {24, 24, 12};
  g.spacing = {1, 1, 2};
  return g;
}

core::Segment liver(std::uint16_t label) {
  core::Segment s = core::defaultSegment(label);
  s.name = "liver";
  s.color = {200, 100, 50};
  return s;
}

std::size_t countOf(const core::LabelMap& m, std::uint16_t v) {
  std::size_t n = 0;
  for (std::size_t x = 0; x < m.voxelCount(); ++x) {
    n += m.data()[x] == v;
  }
  return n;
}

class ReaderReviewTest : public ::testing::Test {
 protected:
  // A and B agree on a 10x10x4 block; B adds a 2-voxel-thick strip (160 voxels: region 1); A adds
  // a far 3x3x2 corner (18 voxels: region 2). B calls the liver 2.
  core::LabelMap a{"A", reviewGrid(), {liver(1)}};
  core::LabelMap b{"B", reviewGrid(), {core::defaultSegment(1), liver(2)}};
  void SetUp() override {
    test::fillLabelBox(a, 1, {2, 2, 2}, {12, 12, 6});
    test::fillLabelBox(b, 2, {2, 2, 2}, {12, 12, 6});
    test::fillLabelBox(b, 2, {12, 2, 2}, {14, 12, 6});
    test::fillLabelBox(a, 1, {20, 20, 9}, {23, 23, 11});
  }
  ReaderReview computed() {
    core::NullProgress progress;
    ReaderReview::Input in;
    in.readers = {&a, &b};
    in.names = {"Dr A", "Dr B"};
    in.tools = {"AI: built-in engine, model deepgrow; tools: tool.brush 2"};
    in.structure = "liver";
    return ReaderReview::compute(in, progress);
  }
};

TEST_F(ReaderReviewTest, MatrixRegionsAndStepping) {
  ReaderReview r = computed();
  EXPECT_EQ(r.structure(), "liver");
  const double both = 400, onlyA = 400 + 18, onlyB = 400 + 80;
  ASSERT_EQ(r.matrices().dice.size(), 2u);
  EXPECT_NEAR(r.matrices().dice[0][1], 2 * both / (onlyA + onlyB), 1e-9);
  EXPECT_EQ(r.matrices().dice[0][1], r.matrices().dice[1][0]);
  EXPECT_GT(r.matrices().hd95[0][1], 0);
  ASSERT_EQ(r.regions().size(), 2u);
  EXPECT_EQ(r.current(), -1);
  EXPECT_FALSE(r.previous());
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.currentRegion()->voxels.size(), 80u);
  EXPECT_EQ(r.describe(0), "Region 1 of 2: 80 voxels, marked by Dr B, not by Dr A");
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.describe(1), "Region 2 of 2: 18 voxels, marked by Dr A, not by Dr B");
  EXPECT_FALSE(r.next());
  EXPECT_EQ(r.current(), 1);
  EXPECT_TRUE(r.previous());
  EXPECT_EQ(r.current(), 0);
}

TEST_F(ReaderReviewTest, TakingAReadersVersionChangesOnlyItsRegionAndTheRecordSaysWhose) {
  ReaderReview r = computed();
  auto adjudicated = r.majorityMap("Adjudicated");
  EXPECT_EQ(adjudicated->segments().at(0).name, "liver");
  EXPECT_EQ(adjudicated->segments().at(0).color, (std::array<std::uint8_t, 3>{200, 100, 50}));
  const std::uint16_t label = adjudicated->segments().at(0).label;
  EXPECT_EQ(countOf(*adjudicated, label), 400u);  // two readers: both must mark it

  // Region 1 (B's strip): take B. Region 2 (A's corner): keep the majority (without it).
  const core::DisagreementRegion& strip = r.regions()[0];
  core::VoxelDelta delta = adoptReaderRegion(*adjudicated, label, strip.voxels, strip.markedBy[1]);
  EXPECT_EQ(countOf(*adjudicated, label), 400u);  // staged: nothing written yet
  delta.apply(*adjudicated, true);
  EXPECT_EQ(countOf(*adjudicated, label), 480u);
  EXPECT_EQ(adjudicated->at(13, 5, 3), label);
  EXPECT_EQ(adjudicated->at(21, 21, 10), 0);

  core::AdjudicationRecord rec = r.record(*adjudicated, label, "reviewer", "2026-11-28T08:00:00Z");
  EXPECT_EQ(rec.readers, (std::vector<std::string>{"Dr A", "Dr B"}));
  EXPECT_EQ(rec.readerTools, (std::vector<std::string>{
                                 "AI: built-in engine, model deepgrow; tools: tool.brush 2", ""}));
  ASSERT_EQ(rec.regions.size(), 2u);
  EXPECT_EQ(rec.regions[0].source, "Dr B");
  EXPECT_EQ(rec.regions[0].agreement, (std::vector<double>{0.0, 1.0}));
  EXPECT_EQ(rec.regions[1].source, "Dr B");  // kept out, as B has it

  // Take A's version of the strip back (undo would do the same): A's, i.e. empty there.
  adoptReaderRegion(*adjudicated, label, strip.voxels, strip.markedBy[0]).apply(*adjudicated, true);
  EXPECT_EQ(countOf(*adjudicated, label), 400u);
  // An edit that matches nobody in region 2: half the corner.
  adjudicated->mutableData()[adjudicated->index(20, 20, 9)] = label;
  rec = r.record(*adjudicated, label, "reviewer", "t");
  EXPECT_EQ(rec.regions[0].source, "Dr A");
  EXPECT_EQ(rec.regions[1].source, "edited");
  EXPECT_NEAR(rec.regions[1].agreement[0], 1.0 / 18, 1e-12);
}

TEST_F(ReaderReviewTest, LockedSegmentsHoldAndAStructureNobodyHasIsNamed) {
  ReaderReview r = computed();
  auto adjudicated = r.majorityMap("Adjudicated");
  const std::uint16_t label = adjudicated->segments().at(0).label;
  core::Segment other = core::defaultSegment(7);
  other.locked = true;
  adjudicated->segments().push_back(other);
  adjudicated->mutableData()[adjudicated->index(12, 5, 3)] = 7;  // inside B's strip
  const core::DisagreementRegion& strip = r.regions()[0];
  adoptReaderRegion(*adjudicated, label, strip.voxels, strip.markedBy[1]).apply(*adjudicated, true);
  EXPECT_EQ(adjudicated->at(12, 5, 3), 7);
  EXPECT_EQ(adjudicated->at(13, 5, 3), label);

  core::NullProgress progress;
  ReaderReview::Input in;
  in.readers = {&a, &b};
  in.structure = "spleen";
  try {
    ReaderReview::compute(in, progress);
    FAIL() << "a structure no reader has was accepted";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("spleen"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace delineate::annotation
