// One reference/test pair: labels paired by segment name (maps numbering them differently) or by
// value, the test renumbered onto the reference's values, and the metrics of each pair.
#include "core/metrics/PairEvaluation.h"

#include <gtest/gtest.h>

#include "MetricsTestSupport.h"

using namespace delineate::core;
using delineate::test::metricsGrid;
using delineate::test::paintBox;

namespace {

Segment named(std::uint16_t label, const std::string& name) {
  Segment s;
  s.label = label;
  s.name = name;
  return s;
}

}  // namespace

TEST(PairEvaluation, PairsLabelsByNameAndRenumbersTheTest) {
  const ImageGeometry g = metricsGrid({16, 16, 8}, {1, 1, 2});
  LabelMap ref("ref", g, {named(1, "liver"), named(2, "spleen")});
  LabelMap test("test", g, {named(1, "spleen"), named(2, "liver")});
  paintBox(ref, {0, 0, 0}, {4, 4, 4}, 1);
  paintBox(ref, {8, 8, 0}, {12, 12, 4}, 2);
  paintBox(test, {0, 0, 0}, {4, 4, 4}, 2);    // liver, numbered 2 in the test
  paintBox(test, {8, 8, 0}, {12, 12, 2}, 1);  // spleen, half of the reference's

  NullProgress progress;
  const PairEvaluation byName = evaluatePair(ref, test, {}, progress);
  EXPECT_TRUE(byName.matchedByName);
  ASSERT_EQ(byName.labels.size(), 2u);
  const auto find = [&](const PairEvaluation& p, const std::string& name) {
    for (const LabelEvaluation& l : p.labels) {
      if (l.name == name) {
        return l;
      }
    }
    ADD_FAILURE() << name;
    return LabelEvaluation{};
  };
  const LabelEvaluation liver = find(byName, "liver");
  EXPECT_EQ(liver.referenceValue, 1);
  EXPECT_EQ(liver.testValue, 2);
  EXPECT_EQ(liver.value, 1);
  EXPECT_DOUBLE_EQ(liver.metric(Metric::Dice), 1.0);
  EXPECT_DOUBLE_EQ(find(byName, "spleen").metric(Metric::Dice), 2.0 * 32 / (64 + 32));
  ASSERT_TRUE(byName.renumberedTest.has_value());
  EXPECT_EQ(byName.renumberedTest->at(0, 0, 0), 1);
  EXPECT_EQ(byName.renumberedTest->at(8, 8, 0), 2);

  PairEvaluationOptions byValue;
  byValue.referenceHasTable = byValue.testHasTable = false;
  const PairEvaluation values = evaluatePair(ref, test, byValue, progress);
  EXPECT_FALSE(values.matchedByName);
  ASSERT_EQ(values.labels.size(), 2u);
  for (const LabelEvaluation& l : values.labels) {
    EXPECT_DOUBLE_EQ(l.metric(Metric::Dice), 0.0) << l.name;  // the boxes swap values: no overlap
  }
}

TEST(PairEvaluation, ReportsALabelMissingFromTheTest) {
  const ImageGeometry g = metricsGrid({8, 8, 4}, {1, 1, 1});
  LabelMap ref("ref", g, {named(1, "tumour")});
  LabelMap test("test", g, {named(1, "tumour")});
  paintBox(ref, {1, 1, 1}, {3, 3, 3}, 1);
  NullProgress progress;
  const PairEvaluation p = evaluatePair(ref, test, {}, progress);
  ASSERT_EQ(p.labels.size(), 1u);
  EXPECT_EQ(p.labels[0].note, "empty in the test");
  EXPECT_DOUBLE_EQ(p.labels[0].metric(Metric::Dice), 0.0);
  EXPECT_FALSE(p.renumberedTest.has_value());
}

// Every metric lands where its descriptor says, whatever its position: a 4 x 4 x 4 box against the
// same box 2 voxels along x (1 mm voxels): Dice 0.5, Jaccard 1/3, both 0.064 ml, Hausdorff 2 mm.
TEST(PairEvaluation, EveryMetricIsReadByItsDescriptor) {
  const ImageGeometry g = metricsGrid({16, 16, 8}, {1, 1, 1});
  LabelMap ref("ref", g, {named(1, "box")});
  LabelMap test("test", g, {named(1, "box")});
  paintBox(ref, {2, 2, 2}, {6, 6, 6}, 1);
  paintBox(test, {4, 2, 2}, {8, 6, 6}, 1);
  NullProgress progress;
  const PairEvaluation p = evaluatePair(ref, test, {}, progress);
  ASSERT_EQ(p.labels.size(), 1u);
  const LabelEvaluation& box = p.labels[0];
  EXPECT_DOUBLE_EQ(box.metric(Metric::Dice), 0.5);
  EXPECT_DOUBLE_EQ(box.metric(Metric::Jaccard), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(box.metric(Metric::Sensitivity), 0.5);
  EXPECT_DOUBLE_EQ(box.metric(Metric::Precision), 0.5);
  EXPECT_NEAR(box.metric(Metric::VolumeRefMl), 0.064, 1e-12);
  EXPECT_NEAR(box.metric(Metric::VolumeTestMl), 0.064, 1e-12);
  EXPECT_NEAR(box.metric(Metric::VolumeDiffPct), 0.0, 1e-12);
  EXPECT_DOUBLE_EQ(box.metric(Metric::HausdorffMm), 2.0);
  EXPECT_LE(box.metric(Metric::Hd95Mm), 2.0);
  EXPECT_GT(box.metric(Metric::AssdMm), 0.0);
  // The CSV/JSON ids are the descriptors', in their order, each once.
  for (std::size_t i = 0; i < kMetricDescriptors.size(); ++i) {
    EXPECT_STREQ(kEvaluationMetrics[i], kMetricDescriptors[i].id);
    for (std::size_t j = 0; j < i; ++j) {
      EXPECT_STRNE(kMetricDescriptors[i].id, kMetricDescriptors[j].id);
    }
  }
  EXPECT_STREQ(descriptor(Metric::Hd95Mm).id, "hd95_mm");
  EXPECT_FALSE(descriptor(Metric::Hd95Mm).higherIsBetter);
  EXPECT_TRUE(descriptor(Metric::SurfaceDice).higherIsBetter);
}
