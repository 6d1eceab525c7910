// The compare view's Qt-free half on known maps: the labels matched by name across two
// numbering schemes (the test renumbered onto the reference), the agreement counts and per-slice
// Dice, the labels shown and the distance colour range; one label alone; worst-slice stepping;
// the one-case table.
#include <gtest/gtest.h>

#include <cmath>

#include "LabelBoxes.h"
#include "annotation/review/PairComparison.h"
#include "core/metrics/MetricDescriptors.h"

namespace delineate::annotation {
namespace {

core::ImageGeometry pairGrid() {
  core::ImageGeometry g;
  g.size = {20, 20, 10};
  return g;
}

core::Segment named(std::uint16_t label, const std::string& name) {
  core::Segment s = core::defaultSegment(label);
  s.name = name;
  return s;
}

// Reference: liver 1 (10x10 on slices 2..5), spleen 2 (4x4 on slices 7..8). Test numbers them
// the other way round; its liver is 2 voxels wider on slices 2..3 only.
struct Pair {
  std::shared_ptr<core::LabelMap> reference = std::make_shared<core::LabelMap>(
      "expert", pairGrid(), std::vector{named(1, "liver"), named(2, "spleen")});
  std::shared_ptr<core::LabelMap> test = std::make_shared<core::LabelMap>(
      "model", pairGrid(), std::vector{named(1, "spleen"), named(2, "liver")});
  Pair() {
    test::fillLabelBox(*reference, 1, {2, 2, 2}, {12, 12, 6});
    test::fillLabelBox(*reference, 2, {14, 14, 7}, {18, 18, 9});
    test::fillLabelBox(*test, 2, {2, 2, 2}, {12, 12, 6});
    test::fillLabelBox(*test, 2, {12, 2, 2}, {14, 12, 4});
    test::fillLabelBox(*test, 1, {14, 14, 7}, {18, 18, 9});
  }
};

TEST(PairComparison, MatchesByNameAndMeasuresTheAgreement) {
  Pair p;
  core::NullProgress progress;
  core::PairEvaluationOptions options;
  const PairComparison c = comparePair(p.reference, p.test, options, 0, progress);
  EXPECT_TRUE(c.evaluation.matchedByName);
  EXPECT_EQ(c.counts.agree, 400u + 32u);
  EXPECT_EQ(c.counts.testOnly, 40u);
  EXPECT_EQ(c.counts.referenceOnly, 0u);
  EXPECT_EQ(c.counts.differentLabel, 0u);
  // The renumbered test: its liver is the reference's value 1 now.
  EXPECT_EQ(c.compared->at(5, 5, 3), 1);
  EXPECT_EQ(c.compared->at(15, 15, 8), 2);
  ASSERT_EQ(c.sliceDice[2].size(), 10u);
  EXPECT_NEAR(c.sliceDice[2][2], 2.0 * 100 / (2 * 100 + 20), 1e-12);
  EXPECT_DOUBLE_EQ(c.sliceDice[2][4], 1.0);
  EXPECT_TRUE(std::isnan(c.sliceDice[2][0]));
  EXPECT_EQ(c.shownLabels, (std::vector<std::uint16_t>{1, 2}));
  EXPECT_GE(c.distanceRangeMm, 1.0);

  // One label: only the spleen, which agrees everywhere.
  const PairComparison spleen = comparePair(p.reference, p.test, options, 2, progress);
  EXPECT_EQ(spleen.shownLabels, (std::vector<std::uint16_t>{2}));
  EXPECT_EQ(spleen.counts.agree, 32u);
  EXPECT_EQ(spleen.counts.testOnly, 0u);
  EXPECT_DOUBLE_EQ(spleen.distanceRangeMm, 1.0) << "at least 1 mm";

  const core::DatasetEvaluation table = asOneCaseEvaluation(c.evaluation, "model vs expert");
  ASSERT_EQ(table.cases.size(), 1u);
  EXPECT_EQ(table.cases[0].name, "model vs expert");
  EXPECT_EQ(table.cases[0].labels.size(), c.evaluation.labels.size());
}

TEST(PairComparison, StepsThroughTheSlicesWorstFirst) {
  const std::vector<int> order = {25, 30, 15, 20};
  EXPECT_EQ(stepInOrder(order, 2, +1), 25) << "from a slice not in the order: the worst";
  EXPECT_EQ(stepInOrder(order, 2, -1), std::nullopt);
  EXPECT_EQ(stepInOrder(order, 25, +1), 30);
  EXPECT_EQ(stepInOrder(order, 30, -1), 25);
  EXPECT_EQ(stepInOrder(order, 20, +1), std::nullopt);
  EXPECT_EQ(stepInOrder(order, 25, -1), std::nullopt);
  EXPECT_EQ(stepInOrder({}, 3, +1), std::nullopt);
}

}  // namespace
}  // namespace delineate::annotation
