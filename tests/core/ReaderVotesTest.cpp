// Readers' votes and disagreement regions on known readers: the count per voxel, the structure
// found by segment name in maps that number it differently, the regions' sizes, order, centres and
// who marked them; and the adjudication record's JSON round trip and refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "LabelBoxes.h"
#include "core/Error.h"
#include "core/jobs/ProgressSink.h"
#include "core/metrics/AdjudicationRecord.h"
#include "core/metrics/DisagreementRegions.h"
#include "core/metrics/ReaderVotes.h"

namespace delineate::core {
namespace {

ImageGeometry votesGrid() {
  ImageGeometry g;
  g.size = {20, 20, 10};
  return g;
}

Segment named(std::uint16_t label, const std::string& name) {
  Segment s = defaultSegment(label);
  s.name = name;
  return s;
}

struct ThreeReaders {
  // "liver" is value 1 for A and C, value 3 for B (which also has "kidney" as 1).
  LabelMap a{"A", votesGrid(), {named(1, "liver")}};
  LabelMap b{"B", votesGrid(), {named(1, "kidney"), named(3, "liver")}};
  LabelMap c{"C", votesGrid(), {named(1, "liver")}};
  ThreeReaders() {
    test::fillLabelBox(a, 1, {2, 2, 2}, {10, 10, 6});    // 8x8x4 = 256
    test::fillLabelBox(b, 3, {2, 2, 2}, {10, 10, 6});    // the same core ...
    test::fillLabelBox(b, 3, {10, 2, 2}, {13, 10, 6});   // ... plus 3x8x4 = 96 on the right
    test::fillLabelBox(b, 1, {15, 15, 0}, {18, 18, 2});  // kidney: not the liver
    test::fillLabelBox(c, 1, {2, 2, 2}, {10, 10, 5});    // one slice fewer (k 5 missing: 64)
  }
  std::vector<const LabelMap*> all() const { return {&a, &b, &c}; }
};

TEST(ReaderVotes, CountsTheReadersThatMarkedEachVoxelFindingTheStructureByName) {
  ThreeReaders r;
  NullProgress progress;
  const ReaderVotes v = readerVotes(r.all(), "liver", 1, progress);
  EXPECT_EQ(v.values, (std::vector<std::uint16_t>{1, 3, 1}));
  ASSERT_EQ(v.histogram.size(), 4u);
  EXPECT_EQ(v.histogram[3], 8u * 8 * 3);  // k 2..4 in all three
  EXPECT_EQ(v.histogram[2], 64u);         // k 5: A and B
  EXPECT_EQ(v.histogram[1], 96u);         // B's extra strip
  EXPECT_EQ(v.disagreeing(), 160u);
  EXPECT_EQ(v.map->at(5, 5, 3), 3);
  EXPECT_EQ(v.map->at(5, 5, 5), 2);
  EXPECT_EQ(v.map->at(11, 5, 3), 1);
  EXPECT_EQ(v.map->at(16, 16, 1), 0);  // B's kidney is not counted
  ASSERT_EQ(v.map->segments().size(), 3u);
  EXPECT_EQ(v.map->segments()[0].name, "1 of 3 readers");
  EXPECT_EQ(v.map->segments()[2].name, "3 of 3 readers");
  EXPECT_NE(v.map->segments()[0].color, v.map->segments()[2].color);
}

TEST(ReaderVotes, ByValueWhenNoNameIsGivenAndARefusalForOneReaderOrAnotherGrid) {
  ThreeReaders r;
  NullProgress progress;
  const ReaderVotes v = readerVotes(r.all(), "", 1, progress);
  EXPECT_EQ(v.values, (std::vector<std::uint16_t>{1, 1, 1}));
  EXPECT_EQ(v.map->at(16, 16, 1), 1);  // now B's value 1 counts
  EXPECT_THROW(readerVotes({&r.a}, "liver", 1, progress), Error);
  ImageGeometry other = votesGrid();
  other.size[2] = 11;
  LabelMap d("D", other, {named(1, "liver")});
  try {
    readerVotes({&r.a, &d}, "liver", 1, progress);
    FAIL() << "another grid was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("D"), std::string::npos) << e.what();
  }
}

TEST(DisagreementRegions, LargestFirstWithTheirCentresAndWhoMarkedThem) {
  ThreeReaders r;
  NullProgress progress;
  const ReaderVotes v = readerVotes(r.all(), "liver", 1, progress);
  // B's strip (1 vote, i 10..12, k 2..5) and the k 5 slab (2 votes, i 2..9) share the face
  // between i 9 and 10 at k 5: one region.
  const std::vector<DisagreementRegion> regions = disagreementRegions(v, r.all(), 1, progress);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].voxels.size(), 160u);
  EXPECT_EQ(regions[0].marked, (std::vector<std::size_t>{64, 160, 0}));
  EXPECT_EQ(regions[0].box.lo, (Size3{2, 2, 2}));
  EXPECT_EQ(regions[0].box.hi, (Size3{13, 10, 6}));
  const auto& c = regions[0].centre;
  EXPECT_NE(v.map->at(c[0], c[1], c[2]), 0);
  EXPECT_NE(v.map->at(c[0], c[1], c[2]), 3);

  // Two apart regions: C also misses a far corner the others have.
  test::fillLabelBox(r.a, 1, {15, 0, 8}, {17, 2, 9});  // 4 voxels, A only
  const ReaderVotes w = readerVotes(r.all(), "liver", 1, progress);
  const auto two = disagreementRegions(w, r.all(), 1, progress);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].voxels.size(), 160u);
  EXPECT_EQ(two[1].voxels.size(), 4u);
  EXPECT_EQ(two[1].marked, (std::vector<std::size_t>{4, 0, 0}));
  EXPECT_EQ(two[1].markedBy[0], std::vector<bool>(4, true));
  EXPECT_EQ(disagreementRegions(w, r.all(), 5, progress).size(), 1u);  // the small one dropped
}

TEST(AdjudicationRecord, JsonRoundTripAndRefusals) {
  AdjudicationRecord rec;
  rec.structure = "liver";
  rec.labelMap = "Adjudicated";
  rec.readers = {"A", "B"};
  rec.readerTools = {"AI: MONAI Label at http://gpu:8000, model deepedit; tools: tool.brush 3", ""};
  rec.reviewer = "reviewer";
  rec.signedAt = "2026-11-28T08:00:00Z";
  rec.regions.push_back({160, {5, 5, 5}, "B", {0.4, 1.0}});
  rec.regions.push_back({4, {15, 1, 8}, "edited", {0.5, 0.5}});
  EXPECT_EQ(adjudicationRecordFromJson(adjudicationRecordJson(rec), "x"), rec);
  // A record written before reader_tools existed still reads.
  nlohmann::json older = nlohmann::json::parse(adjudicationRecordJson(rec));
  older.erase("reader_tools");
  EXPECT_TRUE(adjudicationRecordFromJson(older.dump(), "x").readerTools.empty());
  EXPECT_EQ(adjudicationRecordPath("/d/case1.nii.gz"), "/d/case1.adjudication.json");
  EXPECT_THROW(adjudicationRecordFromJson("{", "bad.json"), Error);
  EXPECT_THROW(adjudicationRecordFromJson("{\"format\": \"other\"}", "bad.json"), Error);
  try {
    adjudicationRecordFromJson(R"({"format": "delineate-adjudication", "version": 1})", "f.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("f.json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace delineate::core
