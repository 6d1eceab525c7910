#include "annotation/ops/GrowShrink.h"

#include <gtest/gtest.h>

#include "OpsTestSupport.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

TEST(GrowShrink, GrowsThreeMmOnAnisotropicVoxels) {
  // One voxel at (15, 15, 15) on 1x1x3 mm voxels grown by 3 mm: 3 voxels along x and y, 1 along
  // z, exactly the voxel centres within 3 mm.
  const core::VoxelBox one{{15, 15, 15}, {16, 16, 16}};
  const BoxMask m = maskOf(one, [](long, long, long) { return true; });
  core::NullProgress progress;
  const BoxMask r = growShrink(m, 3.0, {1, 1, 3}, {30, 30, 30}, progress);
  EXPECT_EQ(r.box, (core::VoxelBox{{11, 11, 13}, {20, 20, 18}}));  // margin + 1 voxel
  auto within = [](long i, long j, long k) {
    const double x = double(i - 15), y = double(j - 15), z = 3.0 * double(k - 15);
    return x * x + y * y + z * z <= 9.0;
  };
  EXPECT_EQ(mismatches(r, {{0, 0, 0}, {30, 30, 30}}, within), 0u);
  EXPECT_EQ(r.at(18, 15, 15), 1);
  EXPECT_EQ(r.at(19, 15, 15), 0);
  EXPECT_EQ(r.at(15, 15, 16), 1);
  EXPECT_EQ(r.at(15, 15, 17), 0);
  EXPECT_EQ(r.at(16, 15, 16), 0);  // sqrt(1 + 9) > 3
  // 29 in-plane lattice points within 3 at z = 0, and the single centre at z = +-1.
  EXPECT_EQ(r.count(), 29u + 2);
}

TEST(GrowShrink, GrowIsClippedToTheVolume) {
  const BoxMask m = maskOf({{0, 0, 0}, {2, 2, 2}}, [](long, long, long) { return true; });
  core::NullProgress progress;
  const BoxMask r = growShrink(m, 2.0, {1, 1, 1}, {10, 10, 4}, progress);
  EXPECT_EQ(r.box, (core::VoxelBox{{0, 0, 0}, {5, 5, 4}}));
  EXPECT_EQ(r.at(3, 0, 0), 1);
  EXPECT_EQ(r.at(4, 0, 0), 0);
  EXPECT_EQ(r.at(0, 0, 3), 1);
}

TEST(GrowShrink, ShrinkRemovesEverythingWithinTheMargin) {
  // An 11^3 cube shrunk by 2 mm: 7^3 (a voxel at depth 3 is 3 mm from the nearest background).
  const core::VoxelBox box{{5, 5, 5}, {16, 16, 16}};
  const BoxMask m = maskOf(box, [](long, long, long) { return true; });
  core::NullProgress progress;
  const BoxMask r = growShrink(m, -2.0, {1, 1, 1}, {30, 30, 30}, progress);
  EXPECT_EQ(r.box, box);
  EXPECT_EQ(mismatches(r, {{0, 0, 0}, {30, 30, 30}},
                       [](long i, long j, long k) { return inCube(i, j, k, 7, 14); }),
            0u);
  // Spacing-aware: 2 mm on 1x1x2 mm voxels removes 2 voxels in x and y, 1 in z.
  const BoxMask aniso = growShrink(m, -2.0, {1, 1, 2}, {30, 30, 30}, progress);
  EXPECT_EQ(aniso.count(), 7u * 7 * 9);
}

TEST(GrowShrink, TheVolumeEdgeIsNotBackground) {
  // A slab filling the volume in x and y: shrinking only eats from its z faces.
  const core::Size3 size{8, 8, 12};
  const BoxMask m = maskOf({{0, 0, 2}, {8, 8, 10}}, [](long, long, long) { return true; });
  core::NullProgress progress;
  const BoxMask r = growShrink(m, -1.0, {1, 1, 1}, size, progress);
  EXPECT_EQ(mismatches(r, core::VoxelBox::whole(size),
                       [](long, long, long k) { return k >= 3 && k < 9; }),
            0u);
  // Filling the whole volume, there is nothing to shrink from.
  const BoxMask full = maskOf(core::VoxelBox::whole(size), [](long, long, long) { return true; });
  EXPECT_EQ(growShrink(full, -3.0, {1, 1, 1}, size, progress).count(), full.count());
}
