#include "annotation/ops/FillBetweenSlices.h"

#include <gtest/gtest.h>

#include "OpsTestSupport.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

namespace {

// A square of half-width h (side 2h + 1) centred at (10, 10) in the plane of axes (u, v).
bool square(long x, long y, long h) {
  return std::abs(x - 10) <= h && std::abs(y - 10) <= h;
}

// Half-width of slice s along the midline y = 10 (axis 2 slices).
long midlineHalfWidth(const BoxMask& m, std::size_t s) {
  long h = -1;
  while (m.at(std::size_t(10 + h + 1), 10, s) && m.at(std::size_t(10 - h - 1), 10, s)) {
    ++h;
  }
  return h;
}

}  // namespace

TEST(FillBetweenSlices, TwoSquaresOfDifferentSizeGiveIntermediateSizes) {
  // Keyframes: half-width 2 on slice 0, half-width 6 on slice 8.
  const core::VoxelBox box{{0, 0, 0}, {21, 21, 9}};
  const BoxMask sparse = maskOf(box, [](long i, long j, long k) {
    return (k == 0 && square(i, j, 2)) || (k == 8 && square(i, j, 6));
  });
  core::NullProgress progress;
  const BoxMask r = fillBetweenSlices(sparse, 2, progress);
  EXPECT_EQ(r.box, box);
  // On the midline the distances are 1D: outside x - a, inside x - a - 1, so slice s keeps x
  // with x < 2 + 5 s / 8.
  const long expected[9] = {2, 2, 3, 3, 4, 5, 5, 6, 6};
  std::size_t previous = 0;
  for (std::size_t s = 0; s < 9; ++s) {
    EXPECT_EQ(midlineHalfWidth(r, s), expected[s]) << "slice " << s;
    std::size_t count = 0;
    for (long j = 0; j < 21; ++j) {
      for (long i = 0; i < 21; ++i) {
        const bool in = r.at(std::size_t(i), std::size_t(j), s) != 0;
        count += in;
        EXPECT_TRUE(!in || square(i, j, 6)) << "outside the large square: " << i << "," << j;
        EXPECT_TRUE(in || !square(i, j, 2)) << "hole in the small square: " << i << "," << j;
      }
    }
    EXPECT_GE(count, previous) << "slice " << s;
    previous = count;
  }
  // The keyframes stay as drawn.
  EXPECT_EQ(
      mismatches(r, {{0, 0, 0}, {21, 21, 1}}, [](long i, long j, long) { return square(i, j, 2); }),
      0u);
  EXPECT_EQ(
      mismatches(r, {{0, 0, 8}, {21, 21, 9}}, [](long i, long j, long) { return square(i, j, 6); }),
      0u);
}

TEST(FillBetweenSlices, EqualKeyframesGiveTheSameShapeAndNothingOutsideThem) {
  // The same square on slices 3 and 9 of a box with room before and after: slices 4..8 equal
  // it exactly, slices 0..2 and 10..13 stay empty. Along axis 0 this time.
  const core::VoxelBox box{{0, 0, 0}, {14, 21, 21}};
  const BoxMask sparse =
      maskOf(box, [](long i, long j, long k) { return (i == 3 || i == 9) && square(j, k, 4); });
  core::NullProgress progress;
  const BoxMask r = fillBetweenSlices(sparse, 0, progress);
  EXPECT_EQ(mismatches(r, box,
                       [](long i, long j, long k) { return i >= 3 && i <= 9 && square(j, k, 4); }),
            0u);
}

TEST(FillBetweenSlices, ThreeKeyframesAndAdjacentOnes) {
  // Keyframes on slices 0, 1, 5 and 7 (axis 1): 0-1 adjacent, then 1..5 and 5..7 filled.
  const core::VoxelBox box{{0, 0, 0}, {21, 8, 21}};
  const BoxMask sparse = maskOf(box, [](long i, long j, long k) {
    return (j == 0 || j == 1 || j == 5 || j == 7) && square(i, k, j == 5 ? 5 : 3);
  });
  core::NullProgress progress;
  const BoxMask r = fillBetweenSlices(sparse, 1, progress);
  for (long j = 0; j < 8; ++j) {
    std::size_t count = 0;
    for (long k = 0; k < 21; ++k) {
      for (long i = 0; i < 21; ++i) {
        count += r.at(std::size_t(i), std::size_t(j), std::size_t(k));
      }
    }
    EXPECT_GE(count, 49u) << "slice " << j;   // at least the 7x7 square
    EXPECT_LE(count, 121u) << "slice " << j;  // at most the 11x11 one
    if (j == 3) {
      EXPECT_GT(count, 49u);
      EXPECT_LT(count, 121u);
    }
  }
  // Halfway between half-widths 5 and 3: exactly the square of half-width 4.
  EXPECT_EQ(
      mismatches(r, {{0, 6, 0}, {21, 7, 21}}, [](long i, long, long k) { return square(i, k, 4); }),
      0u);
}
