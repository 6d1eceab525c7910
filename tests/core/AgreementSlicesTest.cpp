// Per-slice Dice from an agreement map against the per-label slice Dice, worst-first order, and
// the all-labels rule for voxels of different labels.
#include "core/metrics/AgreementSlices.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "MetricsTestSupport.h"
#include "core/metrics/SliceDice.h"

using namespace delineate::core;
using delineate::test::metricsGrid;
using delineate::test::paintBlobs;
using delineate::test::paintBox;

namespace {

// The agreement values of core/metrics/AgreementMap.h, written out here from their definition.
LabelMap agreementOf(const LabelMap& ref, const LabelMap& test) {
  LabelMap out("agreement", ref.geometry());
  for (std::size_t n = 0; n < ref.voxelCount(); ++n) {
    const std::uint16_t r = ref.data()[n], t = test.data()[n];
    out.mutableData()[n] = r == 0 && t == 0 ? 0 : r == t ? 1 : r == 0 ? 2 : t == 0 ? 3 : 4;
  }
  return out;
}

}  // namespace

TEST(AgreementSlices, EqualPerLabelSliceDiceOnEveryAxis) {
  const ImageGeometry g = metricsGrid({23, 17, 11}, {0.8, 1.1, 2.5});
  LabelMap ref("ref", g), test("test", g);
  std::mt19937 rng(7);
  paintBlobs(ref, 3, rng, 4, 2.0, 6.0);
  paintBlobs(test, 3, rng, 4, 2.0, 6.0);
  NullProgress progress;
  const LabelMap agreement = agreementOf(ref, test);
  const auto dice = agreementSliceDice(agreement, progress);
  for (int axis = 0; axis < 3; ++axis) {
    const std::vector<double> expected = sliceDice(ref, test, 3, axis, progress);
    ASSERT_EQ(dice[std::size_t(axis)].size(), expected.size());
    for (std::size_t s = 0; s < expected.size(); ++s) {
      if (std::isnan(expected[s])) {
        EXPECT_TRUE(std::isnan(dice[std::size_t(axis)][s])) << axis << " " << s;
      } else {
        EXPECT_NEAR(dice[std::size_t(axis)][s], expected[s], 1e-12) << axis << " " << s;
      }
    }
  }
}

TEST(AgreementSlices, DifferentLabelsCountInBothMasksAndAgreeInNeither) {
  const ImageGeometry g = metricsGrid({10, 10, 3}, {1, 1, 1});
  LabelMap ref("ref", g), test("test", g);
  paintBox(ref, {0, 0, 1}, {4, 1, 2}, 1);   // 4 voxels of 1 on slice k = 1
  paintBox(test, {0, 0, 1}, {2, 1, 2}, 1);  // 2 agree
  paintBox(test, {2, 0, 1}, {4, 1, 2}, 2);  // 2 of label 2 where the reference has 1
  NullProgress progress;
  const auto dice = agreementSliceDice(agreementOf(ref, test), progress);
  EXPECT_TRUE(std::isnan(dice[2][0]));
  EXPECT_DOUBLE_EQ(dice[2][1], 2.0 * 2 / (4 + 4));  // |R| = 4, |T| = 4, 2 agree
  EXPECT_TRUE(std::isnan(dice[2][2]));
}

TEST(AgreementSlices, WorstSlicesFirstSkipsEmptySlicesAndKeepsTiesInOrder) {
  const double nan = std::nan("");
  const std::vector<int> order = worstSlicesFirst({0.9, nan, 0.2, 0.5, 0.2, 1.0, nan});
  EXPECT_EQ(order, (std::vector<int>{2, 4, 3, 0, 5}));
  EXPECT_TRUE(worstSlicesFirst({nan, nan}).empty());
}
