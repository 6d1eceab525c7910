#include "annotation/ops/PolygonMask.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "OpsTestSupport.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;
using core::Vec3;

namespace {

// The triangle (2.5, 2.5), (12.7, 2.5), (2.5, 12.7) on slice z = 2 of a 1 mm grid holds the
// lattice points x, y >= 3 with x + y <= 15: sum over x = 3..12 of (13 - x) = 10 + 9 + ... + 1.
constexpr std::size_t kTriangleCount = 55;
const std::vector<Vec3> kTriangle{{2.5, 2.5, 2}, {12.7, 2.5, 2}, {2.5, 12.7, 2}};

bool inTriangle(long i, long j) {
  return i >= 3 && j >= 3 && i + j <= 15;
}

}  // namespace

TEST(PolygonMask, TriangleOnOneSliceMatchesTheHandCount) {
  const core::ImageGeometry g = grid({20, 20, 5});
  const BoxMask m = polygonMask(g, kTriangle, {0, 0, 1}, false);
  EXPECT_EQ(m.count(), kTriangleCount);
  EXPECT_EQ(m.box, (core::VoxelBox{{3, 3, 2}, {13, 13, 3}}));
  EXPECT_EQ(mismatches(m, core::VoxelBox::whole(g.size),
                       [](long i, long j, long k) { return k == 2 && inTriangle(i, j); }),
            0u);
  EXPECT_EQ(m.at(12, 3, 2), 1);
  EXPECT_EQ(m.at(13, 3, 2), 0);
  EXPECT_EQ(m.at(12, 4, 2), 0);
  // Orientation of the outline does not matter; a normal pointing the other way neither.
  const std::vector<Vec3> reversed(kTriangle.rbegin(), kTriangle.rend());
  EXPECT_EQ(polygonMask(g, reversed, {0, 0, -1}, false).bits, m.bits);
}

TEST(PolygonMask, ThroughAllSlicesExtrudesAlongTheNormal) {
  const core::ImageGeometry g = grid({20, 20, 5});
  const BoxMask m = polygonMask(g, kTriangle, {0, 0, 1}, true);
  EXPECT_EQ(m.count(), 5 * kTriangleCount);
  EXPECT_EQ(mismatches(m, core::VoxelBox::whole(g.size),
                       [](long i, long j, long) { return inTriangle(i, j); }),
            0u);
}

TEST(PolygonMask, SagittalOutlineFillsOneSagittalSlice) {
  // A square in the y-z plane at x = 4 mm on 2 mm voxels along x: slice i = 2 only.
  const core::ImageGeometry g = grid({10, 12, 12}, {2, 1, 1});
  const std::vector<Vec3> square{{4, 2.5, 2.5}, {4, 7.5, 2.5}, {4, 7.5, 9.5}, {4, 2.5, 9.5}};
  const BoxMask m = polygonMask(g, square, {1, 0, 0}, false);
  EXPECT_EQ(mismatches(m, core::VoxelBox::whole(g.size),
                       [](long i, long j, long k) {
                         return i == 2 && j >= 3 && j <= 7 && k >= 3 && k <= 9;
                       }),
            0u);
  EXPECT_EQ(polygonMask(g, square, {1, 0, 0}, true).count(), 10u * 5 * 7);
}

TEST(PolygonMask, ConcaveOutlineOnAnObliquePlaneMatchesBruteForce) {
  // A rotated, anisotropic grid and a concave star on a plane tilted on two axes: every voxel
  // agrees with the definition evaluated voxel by voxel.
  core::ImageGeometry g = grid({30, 28, 22}, {0.9, 1.1, 1.7});
  const double a = 0.3;
  g.direction = {std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1};
  g.origin = {-3, 2, -5};
  const Vec3 n = core::normalized({0.3, -0.5, 0.8});
  const Vec3 u = core::normalized(core::cross(n, {1, 0, 0}));
  const Vec3 v = core::cross(n, u);
  const Vec3 centre = g.indexToWorld({14.3, 13.1, 10.6});
  std::vector<Vec3> star;
  for (int p = 0; p < 10; ++p) {
    const double t = p * std::numbers::pi / 5, r = p % 2 ? 4.1 : 10.3;
    star.push_back({centre[0] + r * (std::cos(t) * u[0] + std::sin(t) * v[0]),
                    centre[1] + r * (std::cos(t) * u[1] + std::sin(t) * v[1]),
                    centre[2] + r * (std::cos(t) * u[2] + std::sin(t) * v[2])});
  }
  double half = 0;
  for (int ax = 0; ax < 3; ++ax) {
    half += 0.5 * std::abs(core::dot(g.axis(ax), n)) * g.spacing[ax];
  }
  auto reference = [&](bool through) {
    return [&, through](long i, long j, long k) {
      const Vec3 c = g.indexToWorld({double(i), double(j), double(k)});
      const Vec3 d{c[0] - star[0][0], c[1] - star[0][1], c[2] - star[0][2]};
      if (!through && std::abs(core::dot(d, n)) > half) {
        return false;
      }
      const double px = core::dot(d, u), py = core::dot(d, v);
      bool inside = false;
      for (std::size_t p = 0, q = star.size() - 1; p < star.size(); q = p++) {
        const Vec3 dp{star[p][0] - star[0][0], star[p][1] - star[0][1], star[p][2] - star[0][2]};
        const Vec3 dq{star[q][0] - star[0][0], star[q][1] - star[0][1], star[q][2] - star[0][2]};
        const double x1 = core::dot(dp, u), y1 = core::dot(dp, v);
        const double x2 = core::dot(dq, u), y2 = core::dot(dq, v);
        if ((y1 > py) != (y2 > py) && px < x1 + (py - y1) * (x2 - x1) / (y2 - y1)) {
          inside = !inside;
        }
      }
      return inside;
    };
  };
  const BoxMask slab = polygonMask(g, star, n, false);
  EXPECT_GT(slab.count(), 150u);
  EXPECT_EQ(mismatches(slab, core::VoxelBox::whole(g.size), reference(false)), 0u);
  const BoxMask prism = polygonMask(g, star, n, true);
  EXPECT_GT(prism.count(), 5 * slab.count());
  EXPECT_EQ(mismatches(prism, core::VoxelBox::whole(g.size), reference(true)), 0u);
}

TEST(PolygonMask, DegenerateOutlinesGiveNothing) {
  const core::ImageGeometry g = grid({10, 10, 10});
  EXPECT_TRUE(polygonMask(g, {{1, 1, 1}, {5, 5, 1}}, {0, 0, 1}, false).box.empty());
  // Entirely outside the volume.
  EXPECT_EQ(polygonMask(g, {{20, 20, 5}, {30, 20, 5}, {20, 30, 5}}, {0, 0, 1}, false).count(), 0u);
}
