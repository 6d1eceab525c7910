#include "core/ai/ClickIndex.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/Error.h"

using namespace delineate::core;
using namespace delineate::core::ai;

namespace {

ImageGeometry grid(Size3 size, Vec3 spacing, Vec3 origin, Mat3 direction) {
  ImageGeometry g;
  g.size = size;
  g.spacing = spacing;
  g.origin = origin;
  g.direction = direction;
  return g;
}

const Mat3 kIdentity{1, 0, 0, 0, 1, 0, 0, 0, 1};

}  // namespace

TEST(ClickIndex, RoundsToTheNearestVoxelCentreNotTruncates) {
  const ImageGeometry g = grid({10, 10, 10}, {1, 1, 1}, {0, 0, 0}, kIdentity);
  // Continuous index (2.4, 3.6, 0.5): truncation (MITK) would give (2, 3, 0).
  const ClickIndex c = clickIndex(g, {2.4, 3.6, 0.5});
  EXPECT_TRUE(c.inside);
  EXPECT_EQ(c.ijk, (VoxelIndex{2, 4, 1}));
  EXPECT_EQ(clickIndexInside(g, {-0.49, 9.49, 4.5}), (VoxelIndex{0, 9, 5}));
}

TEST(ClickIndex, AnisotropicSpacingAndOffsetOrigin) {
  const ImageGeometry g = grid({64, 64, 20}, {0.7, 0.7, 2.5}, {-10, 20, 30}, kIdentity);
  // Continuous index (3.4, 5.6, 1.45): world = origin + index * spacing.
  const Vec3 world{-10 + 3.4 * 0.7, 20 + 5.6 * 0.7, 30 + 1.45 * 2.5};  // (-7.62, 23.92, 33.625)
  EXPECT_EQ(clickIndexInside(g, world), (VoxelIndex{3, 6, 1}));
  EXPECT_EQ(clickIndexInside(g, {-7.62, 23.92, 33.625}), (VoxelIndex{3, 6, 1}));
}

TEST(ClickIndex, ObliqueGridRotatedThirtyDegreesAboutZ) {
  const double c = std::sqrt(3.0) / 2;  // cos 30
  const double s = 0.5;                 // sin 30
  // Columns: i -> (c, s, 0), j -> (-s, c, 0), k -> (0, 0, 1).
  const ImageGeometry g = grid({20, 20, 10}, {2, 1, 3}, {5, -5, 10}, {c, -s, 0, s, c, 0, 0, 0, 1});
  // Continuous index (4.3, 6.6, 2.2), by hand:
  //   x = 5 + c*2*4.3 - s*1*6.6 = 9.1478185, y = -5 + s*2*4.3 + c*1*6.6 = 5.0157677,
  //   z = 10 + 3*2.2 = 16.6
  EXPECT_EQ(clickIndexInside(g, {9.1478185, 5.0157677, 16.6}), (VoxelIndex{4, 7, 2}));
}

TEST(ClickIndex, SagittalGridWithPermutedAxes) {
  // Columns: i -> +P (0,1,0), j -> I (0,0,-1), k -> R (-1,0,0).
  const ImageGeometry g =
      grid({40, 30, 8}, {0.5, 0.8, 3}, {100, -50, 20}, {0, 0, -1, 1, 0, 0, 0, -1, 0});
  // Continuous index (10.2, 20.49, 3.51):
  //   world = (100 - 3*3.51, -50 + 0.5*10.2, 20 - 0.8*20.49) = (89.47, -44.9, 3.608)
  EXPECT_EQ(clickIndexInside(g, {89.47, -44.9, 3.608}), (VoxelIndex{10, 20, 4}));
}

TEST(ClickIndex, PointsOutsideTheGridAreFlagged) {
  const ImageGeometry g = grid({4, 5, 6}, {1, 1, 1}, {0, 0, 0}, kIdentity);
  EXPECT_TRUE(clickIndex(g, {-0.4, 0, 0}).inside);  // still the first voxel
  const ClickIndex below = clickIndex(g, {-0.6, 0, 0});
  EXPECT_FALSE(below.inside);
  EXPECT_EQ(below.ijk, (VoxelIndex{-1, 0, 0}));
  EXPECT_TRUE(clickIndex(g, {3.49, 4, 5}).inside);
  EXPECT_FALSE(clickIndex(g, {3.5, 4, 5}).inside);  // rounds to 4 == size
  EXPECT_FALSE(clickIndex(g, {0, 0, 5.6}).inside);
  EXPECT_EQ(clickIndexInside(g, {0, 5, 0}), std::nullopt);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(clickIndex(g, {nan, 0, 0}).inside);
  const ClickIndex far = clickIndex(g, {1e300, 0, 0});
  EXPECT_FALSE(far.inside);
  EXPECT_GT(far.ijk[0], 0);
  ImageGeometry flat = g;
  flat.spacing = {1, 0, 1};  // degenerate: no finite index
  EXPECT_FALSE(clickIndex(flat, {1, 1, 1}).inside);
}

TEST(ClickIndex, ServerFileWrittenInRasWithFlippedAxes) {
  // Our grid: LPS, identity direction. The server reads a NIfTI written from the same voxels in
  // RAS order, i.e. with the i and j axes reversed: index i' = 9 - i, j' = 7 - j, k' = k.
  const ImageGeometry ours = grid({10, 8, 5}, {1, 1, 2}, {0, 0, 0}, kIdentity);
  const ImageGeometry server = withFlippedAxes(ours, {true, true, false});
  EXPECT_EQ(server.origin, (Vec3{9, 7, 0}));
  EXPECT_EQ(server.direction, (Mat3{-1, 0, 0, 0, -1, 0, 0, 0, 1}));
  EXPECT_EQ(server.orientationCode(), "RAS");

  const Vec3 click{2.2, 2.8, 4.1};  // our voxel (2, 3, 2)
  EXPECT_EQ(clickIndexInside(ours, click), (VoxelIndex{2, 3, 2}));
  EXPECT_EQ(clickIndexInside(server, click), (VoxelIndex{7, 4, 2}));

  // The same grid from the file's NIfTI header: index -> RAS affine (row-major 4x4). The
  // i axis points to +R (RAS +x), j to +A; the first voxel lies at LPS (9, 7, 0) = RAS (-9, -7, 0).
  const std::array<double, 16> sform{1, 0, 0, -9, 0, 1, 0, -7, 0, 0, 2, 0, 0, 0, 0, 1};
  const ImageGeometry fromHeader = geometryFromRasAffine({10, 8, 5}, sform);
  EXPECT_TRUE(fromHeader.sameGrid(server)) << fromHeader.differenceFrom(server);
  EXPECT_EQ(clickIndexInside(fromHeader, click), (VoxelIndex{7, 4, 2}));
}

TEST(ClickIndex, RasAffineWithObliqueAnisotropicColumns) {
  // i: 0.5 mm toward RAS (0.6, 0.8, 0); j: 2 mm toward RAS (-0.8, 0.6, 0); k: 3 mm toward S.
  const std::array<double, 16> sform{0.3, -1.6, 0, 10, 0.4, 1.2, 0, 20, 0, 0, 3, -30, 0, 0, 0, 1};
  const ImageGeometry g = geometryFromRasAffine({50, 50, 10}, sform);
  EXPECT_NEAR(g.spacing[0], 0.5, 1e-12);
  EXPECT_NEAR(g.spacing[1], 2.0, 1e-12);
  EXPECT_NEAR(g.spacing[2], 3.0, 1e-12);
  EXPECT_EQ(g.origin, (Vec3{-10, -20, -30}));
  // Index (6, 3, 2): RAS = (10 + 0.3*6 - 1.6*3, 20 + 0.4*6 + 1.2*3, -30 + 3*2) = (7, 26, -24),
  // LPS = (-7, -26, -24). Nudged by less than half a voxel it still rounds to (6, 3, 2).
  EXPECT_EQ(clickIndexInside(g, {-7, -26, -24}), (VoxelIndex{6, 3, 2}));
  EXPECT_EQ(clickIndexInside(g, {-7.1, -26.05, -23.2}), (VoxelIndex{6, 3, 2}));
  EXPECT_THROW(geometryFromRasAffine({1, 1, 1}, {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}),
               Error);
}
