// Per-slice Dice along each axis against counts made slice by slice.
#include "core/metrics/SliceDice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "MetricsTestSupport.h"
#include "core/Error.h"

using namespace delineate::core;
using delineate::test::metricsGrid;
using delineate::test::paintBox;

TEST(SliceDice, ShiftedBoxesHaveTheirDicePerSliceAndNanWhereEmpty) {
  const ImageGeometry g = metricsGrid({20, 16, 12}, {1, 1, 2});
  LabelMap ref("ref", g), test("test", g);
  paintBox(ref, {4, 4, 2}, {10, 10, 6}, 5);   // k 2..5
  paintBox(test, {6, 4, 4}, {12, 10, 8}, 5);  // k 4..7, 2 voxels along i
  NullProgress progress;
  const std::vector<double> k = sliceDice(ref, test, 5, 2, progress);
  ASSERT_EQ(k.size(), 12u);
  for (std::size_t s : {0u, 1u, 8u, 9u, 10u, 11u}) {
    EXPECT_TRUE(std::isnan(k[s])) << s;
  }
  EXPECT_EQ(k[2], 0.0);  // reference only
  EXPECT_EQ(k[3], 0.0);
  EXPECT_DOUBLE_EQ(k[4], 2.0 * 24 / 72);  // 4 x 6 of 6 x 6 each
  EXPECT_DOUBLE_EQ(k[5], 2.0 * 24 / 72);
  EXPECT_EQ(k[6], 0.0);  // test only

  const std::vector<double> i = sliceDice(ref, test, 5, 0, progress);
  ASSERT_EQ(i.size(), 20u);
  EXPECT_TRUE(std::isnan(i[3]));
  EXPECT_EQ(i[4], 0.0);
  EXPECT_DOUBLE_EQ(i[6], 2.0 * 12 / 48);  // k 4..5 of 2..5 and 4..7, 6 voxels along j
  EXPECT_EQ(i[11], 0.0);
  EXPECT_TRUE(std::isnan(i[12]));
}

TEST(SliceDice, EveryAxisAgreesWithSliceBySliceCounts) {
  const ImageGeometry g = metricsGrid({23, 19, 17}, {1, 1, 1});
  LabelMap ref("ref", g), test("test", g);
  std::mt19937 rng(4);
  delineate::test::paintBlobs(ref, 2, rng, 3, 2.0, 6.0);
  delineate::test::paintBlobs(test, 2, rng, 3, 2.0, 6.0);
  delineate::test::paintBlobs(test, 3, rng, 2, 2.0, 6.0);  // another label, ignored
  NullProgress progress;
  for (int axis = 0; axis < 3; ++axis) {
    const std::vector<double> dice = sliceDice(ref, test, 2, axis, progress);
    ASSERT_EQ(dice.size(), g.size[std::size_t(axis)]);
    for (std::size_t s = 0; s < dice.size(); ++s) {
      double a = 0, b = 0, ab = 0;
      for (std::size_t k = 0; k < g.size[2]; ++k) {
        for (std::size_t j = 0; j < g.size[1]; ++j) {
          for (std::size_t i = 0; i < g.size[0]; ++i) {
            const std::size_t index[3] = {i, j, k};
            if (index[axis] != s) {
              continue;
            }
            const bool x = ref.at(i, j, k) == 2, y = test.at(i, j, k) == 2;
            a += x;
            b += y;
            ab += x && y;
          }
        }
      }
      if (a + b == 0) {
        EXPECT_TRUE(std::isnan(dice[s])) << axis << " " << s;
      } else {
        EXPECT_DOUBLE_EQ(dice[s], 2 * ab / (a + b)) << axis << " " << s;
      }
    }
  }
}

TEST(SliceDice, RefusesOtherGridsAxesAndTheBackground) {
  LabelMap ref("ref", metricsGrid({8, 8, 8}, {1, 1, 1}));
  LabelMap test("test", metricsGrid({8, 8, 8}, {1, 1, 1.5}));
  NullProgress progress;
  EXPECT_THROW(sliceDice(ref, test, 1, 2, progress), Error);
  EXPECT_THROW(sliceDice(ref, ref, 1, 3, progress), Error);
  EXPECT_THROW(sliceDice(ref, ref, 0, 2, progress), Error);  // background
}
