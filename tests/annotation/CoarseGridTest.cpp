// The coarse grid the segmenters fall back to for very large regions: block means with the
// block's spacing and position, a voxel's block, and a coarse mask back on the fine grid.
#include "annotation/engine/CoarseGrid.h"

#include <gtest/gtest.h>

#include "OpsTestSupport.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

TEST(CoarseGrid, BlocksAreAveragedWhereTheyLieAndMapBack) {
  EXPECT_EQ(coarseFactor(1000, 1000), 1u);
  EXPECT_EQ(coarseFactor(1001, 1000), 2u);
  EXPECT_EQ(coarseFactor(27000, 1000), 3u);
  const auto image = imageOf(grid({10, 6, 4}, {0.5, 1, 2}), [](long i, long, long) {
    return double(i);  // 0..9 along x
  });
  const core::VoxelBox roi{{2, 0, 0}, {9, 6, 4}};  // 7 wide: the last block holds one column
  const core::VolumePtr coarse = coarseImage(*image, roi, 2);
  const core::ImageGeometry& g = coarse->geometry();
  EXPECT_EQ(g.size, (core::Size3{4, 3, 2}));
  EXPECT_EQ(g.spacing, (core::Vec3{1, 2, 4}));
  EXPECT_DOUBLE_EQ(coarse->valueAt(0, 0, 0), 2.5);  // columns 2 and 3
  EXPECT_DOUBLE_EQ(coarse->valueAt(3, 2, 1), 8.0);  // column 8 alone
  // The block (0,0,0) is centred between the fine voxels it averages.
  const core::Vec3 centre = g.indexToWorld({0, 0, 0});
  const core::Vec3 expected = image->geometry().indexToWorld({2.5, 0.5, 0.5});
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(centre[std::size_t(a)], expected[std::size_t(a)], 1e-9);
  }
  EXPECT_EQ(coarseVoxel({8, 5, 3}, roi, 2), (core::Size3{3, 2, 1}));

  BoxMask small(core::VoxelBox{{1, 0, 0}, {3, 1, 1}});
  small.set(1, 0, 0);  // fine columns 4 and 5, rows 0-1, slices 0-1
  const BoxMask fine = fineMask(small, roi, 2);
  EXPECT_EQ(fine.count(), 2u * 2u * 2u);
  EXPECT_EQ(fine.at(4, 1, 1), 1);
  EXPECT_EQ(fine.at(6, 0, 0), 0);
  EXPECT_EQ(fine.box.hi[0], 8u) << "the coarse box's second block, columns 6 and 7";
}
