#include "annotation/ops/Islands.h"

#include <gtest/gtest.h>

#include "OpsTestSupport.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

namespace {

const core::VoxelBox kBox{{2, 2, 2}, {22, 22, 22}};

bool smallBlob(long i, long j, long k) {  // 3x3x3 = 27
  return i >= 4 && i < 7 && j >= 4 && j < 7 && k >= 4 && k < 7;
}
bool largeBlob(long i, long j, long k) {  // 4x4x4 = 64
  return i >= 12 && i < 16 && j >= 12 && j < 16 && k >= 12 && k < 16;
}
bool speck(long i, long j, long k) {
  return i == 20 && j == 3 && k == 3;
}

}  // namespace

TEST(Islands, KeepLargestOfTwoSeparateBlobs) {
  const BoxMask m = maskOf(kBox, [](long i, long j, long k) {
    return smallBlob(i, j, k) || largeBlob(i, j, k) || speck(i, j, k);
  });
  EXPECT_EQ(islandSizes(m), (std::vector<std::size_t>{64, 27, 1}));
  const BoxMask largest = keepLargestIsland(m);
  EXPECT_EQ(largest.box, kBox);  // same box, so that applying it clears the others
  EXPECT_EQ(mismatches(largest, kBox, largeBlob), 0u);
}

TEST(Islands, RemoveSmallIslandsKeepsThoseAtTheMinimum) {
  const BoxMask m = maskOf(kBox, [](long i, long j, long k) {
    return smallBlob(i, j, k) || largeBlob(i, j, k) || speck(i, j, k);
  });
  EXPECT_EQ(
      mismatches(removeSmallIslands(m, 27), kBox,
                 [](long i, long j, long k) { return smallBlob(i, j, k) || largeBlob(i, j, k); }),
      0u);
  EXPECT_EQ(mismatches(removeSmallIslands(m, 28), kBox, largeBlob), 0u);
  EXPECT_EQ(removeSmallIslands(m, 1).count(), 92u);
  EXPECT_EQ(removeSmallIslands(m, 65).count(), 0u);
}

TEST(Islands, EdgeAndCornerContactDoNotConnect) {
  // Three voxels touching only along an edge or at a corner: three 6-connected islands.
  const BoxMask m = maskOf(kBox, [](long i, long j, long k) {
    return (i == 5 && j == 5 && k == 5) || (i == 6 && j == 6 && k == 5) ||
           (i == 7 && j == 7 && k == 6);
  });
  EXPECT_EQ(islandSizes(m), (std::vector<std::size_t>{1, 1, 1}));
}

TEST(Islands, ShapesThatJoinLateAreOneIsland) {
  // A comb: teeth along x joined only by a bar on the last slice; and a U joined at the bottom
  // row. Union-find must merge components met separately first.
  const BoxMask m = maskOf(kBox, [](long i, long j, long k) {
    const bool comb = (j >= 3 && j < 12 && k >= 3 && k < 10 && (i == 3 || i == 6 || i == 9)) ||
                      (k == 10 && j >= 3 && j < 12 && i >= 3 && i <= 9);
    const bool u = k == 15 && ((i == 14 && j >= 14) || (i == 18 && j >= 14) ||
                               (j == 20 && i >= 14 && i <= 18));
    return comb || u;
  });
  const auto sizes = islandSizes(m);
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0], 3u * 9 * 7 + 9 * 7);
  EXPECT_EQ(sizes[1], 8u + 8 + 3);  // two pillars of 8 and the bar between them
  EXPECT_EQ(keepLargestIsland(m).count(), sizes[0]);
}

TEST(Islands, EmptyMaskStaysEmpty) {
  const BoxMask m(kBox);
  EXPECT_TRUE(islandSizes(m).empty());
  EXPECT_EQ(keepLargestIsland(m).count(), 0u);
  EXPECT_EQ(keepLargestIsland(m).box, kBox);
}
