// The agreement map of two label maps: values, counts, the label filter, segments and errors.
#include "core/metrics/AgreementMap.h"

#include <gtest/gtest.h>

#include <array>
#include <random>

#include "MetricsTestSupport.h"
#include "core/Error.h"

using namespace delineate::core;
using delineate::test::countLabel;
using delineate::test::metricsGrid;
using delineate::test::paintBox;

namespace {

AgreementCounts countsOf(const LabelMap& map) {
  return {countLabel(map, kAgreementBoth), countLabel(map, kAgreementTestOnly),
          countLabel(map, kAgreementReferenceOnly), countLabel(map, kAgreementDifferentLabel)};
}

}  // namespace

TEST(AgreementMap, OverlappingCubesHaveTheirCounts) {
  const ImageGeometry g = metricsGrid({13, 12, 11}, {0.7, 0.9, 2.5});
  LabelMap ref("ref", g), test("test", g);
  paintBox(ref, {2, 2, 2}, {8, 8, 8}, 1);      // 216 voxels
  paintBox(test, {4, 4, 4}, {10, 10, 10}, 1);  // 216, 64 shared
  NullProgress progress;
  const Agreement a = agreementMap(ref, test, 0, progress);
  ASSERT_TRUE(a.map);
  EXPECT_TRUE(a.map->geometry().sameGrid(g));
  EXPECT_EQ(a.map->name(), "Agreement: ref vs test");
  EXPECT_EQ(a.counts, (AgreementCounts{64, 152, 152, 0}));
  EXPECT_EQ(countsOf(*a.map), a.counts);
  EXPECT_EQ(a.map->at(5, 5, 5), kAgreementBoth);
  EXPECT_EQ(a.map->at(9, 9, 9), kAgreementTestOnly);
  EXPECT_EQ(a.map->at(2, 2, 2), kAgreementReferenceOnly);
  EXPECT_EQ(a.map->at(0, 0, 0), 0);
  EXPECT_EQ(a.map->at(12, 11, 10), 0);
}

TEST(AgreementMap, DifferentLabelsAreTheirOwnClassUnlessOneLabelIsPicked) {
  const ImageGeometry g = metricsGrid({10, 10, 10}, {1, 1, 1});
  LabelMap ref("ref", g), test("test", g);
  ref.segments() = {defaultSegment(1), defaultSegment(2)};
  ref.segments()[0].name = "liver";
  paintBox(ref, {0, 0, 0}, {4, 4, 4}, 1);  // 64: labelled 2 in the test
  paintBox(test, {0, 0, 0}, {4, 4, 4}, 2);
  paintBox(ref, {6, 6, 6}, {8, 8, 8}, 2);  // 8: agree on label 2
  paintBox(test, {6, 6, 6}, {8, 8, 8}, 2);
  paintBox(ref, {0, 6, 0}, {1, 7, 3}, 1);  // 3: label 1 in both
  paintBox(test, {0, 6, 0}, {1, 7, 3}, 1);
  NullProgress progress;

  const Agreement all = agreementMap(ref, test, 0, progress);
  EXPECT_EQ(all.counts, (AgreementCounts{11, 0, 0, 64}));
  EXPECT_EQ(all.map->at(1, 1, 1), kAgreementDifferentLabel);
  EXPECT_EQ(all.map->segments().size(), 4u);

  // Label 1: the 64 voxels are 1 in the reference only; label 2 elsewhere is background.
  const Agreement one = agreementMap(ref, test, 1, progress);
  EXPECT_EQ(one.counts, (AgreementCounts{3, 0, 64, 0}));
  EXPECT_EQ(one.map->at(1, 1, 1), kAgreementReferenceOnly);
  EXPECT_EQ(one.map->at(7, 7, 7), 0);
  EXPECT_EQ(one.map->name(), "Agreement: ref vs test, liver");
  ASSERT_EQ(one.map->segments().size(), 3u);
  EXPECT_EQ(one.map->segment(kAgreementDifferentLabel), nullptr);

  // Label 2: the same voxels are test only.
  const Agreement two = agreementMap(ref, test, 2, progress);
  EXPECT_EQ(two.counts, (AgreementCounts{8, 64, 0, 0}));
  EXPECT_EQ(two.map->at(1, 1, 1), kAgreementTestOnly);
  EXPECT_EQ(two.map->name(), "Agreement: ref vs test, Segment 2");
  EXPECT_EQ(agreementMap(ref, test, 9, progress).map->name(), "Agreement: ref vs test, label 9");
}

TEST(AgreementMap, EveryVoxelMatchesItsDefinition) {
  // Odd row lengths: the eight-voxel background skip and its tail.
  const ImageGeometry g = metricsGrid({29, 17, 13}, {1, 1, 1});
  LabelMap ref("ref", g), test("test", g);
  std::mt19937 rng(7);
  for (std::uint16_t label : {1, 2, 300}) {
    delineate::test::paintBlobs(ref, label, rng, 2, 2.0, 5.0);
    delineate::test::paintBlobs(test, label, rng, 2, 2.0, 5.0);
  }
  NullProgress progress;
  for (std::uint16_t label : {0, 2, 300}) {
    const Agreement a = agreementMap(ref, test, label, progress);
    AgreementCounts expected;
    for (std::size_t v = 0; v < ref.voxelCount(); ++v) {
      const std::uint16_t r = ref.data()[v], t = test.data()[v];
      std::uint16_t value = 0;
      if (label == 0) {
        value = r == t ? (r ? 1 : 0) : r == 0 ? 2 : t == 0 ? 3 : 4;
      } else {
        value = r == label && t == label ? 1 : t == label ? 2 : r == label ? 3 : 0;
      }
      ASSERT_EQ(a.map->data()[v], value) << "label " << label << " voxel " << v;
      expected.agree += value == 1;
      expected.testOnly += value == 2;
      expected.referenceOnly += value == 3;
      expected.differentLabel += value == 4;
    }
    EXPECT_EQ(a.counts, expected);
    EXPECT_GT(a.counts.agree + a.counts.testOnly + a.counts.referenceOnly, 0u);
  }
}

TEST(AgreementMap, SegmentsAreNamedAndColouredOkabeIto) {
  const std::vector<Segment> s = agreementSegments(true);
  ASSERT_EQ(s.size(), 4u);
  const char* names[] = {"Agreement", "Test only (false positive)",
                         "Reference only (false negative)", "Different label"};
  const std::array<std::uint8_t, 3> colours[] = {
      {0, 158, 115}, {230, 159, 0}, {86, 180, 233}, {204, 121, 167}};
  for (std::size_t n = 0; n < s.size(); ++n) {
    EXPECT_EQ(s[n].label, n + 1);
    EXPECT_EQ(s[n].name, names[n]);
    EXPECT_EQ(s[n].color, colours[n]);
    EXPECT_TRUE(s[n].visible);
  }
  EXPECT_EQ(agreementSegments(false).size(), 3u);
}

TEST(AgreementMap, RefusesOtherGridsAndStopsOnCancel) {
  LabelMap ref("ref", metricsGrid({8, 8, 8}, {1, 1, 1}));
  LabelMap test("test", metricsGrid({8, 8, 9}, {1, 1, 1}));
  NullProgress progress;
  try {
    agreementMap(ref, test, 0, progress);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("size 8x8x8 vs 8x8x9"), std::string::npos) << e.what();
  }
  CancelToken token;
  token.cancel();
  NullProgress cancelled(token);
  EXPECT_THROW(agreementMap(ref, ref, 0, cancelled), CancelledError);
}
