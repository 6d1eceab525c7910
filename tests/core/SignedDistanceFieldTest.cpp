// The signed distance field of a label: exact against brute force over the boundary faces, a
// half-space, spheres in an anisotropic grid, half-voxel vertices, boxes and errors.
#include "core/metrics/SignedDistanceField.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "MetricsTestSupport.h"
#include "core/Error.h"

using namespace delineate::core;
using delineate::test::metricsGrid;
using delineate::test::paintBall;
using delineate::test::paintBox;

namespace {

DistanceField wholeField(const LabelMap& map, std::uint16_t label) {
  NullProgress progress;
  return signedDistanceField(map, label, VoxelBox::whole(map.geometry().size), progress);
}

float voxel(const DistanceField& f, std::size_t i, std::size_t j, std::size_t k) {
  const Size3 n{f.box.hi[0] - f.box.lo[0], f.box.hi[1] - f.box.lo[1], f.box.hi[2] - f.box.lo[2]};
  return f.mm[(i - f.box.lo[0]) + n[0] * ((j - f.box.lo[1]) + n[1] * (k - f.box.lo[2]))];
}

// The centres (mm) of the faces between a voxel of the label and a face neighbour not of it
// (outside the grid is not of the label).
std::vector<Vec3> boundaryFaces(const LabelMap& map, std::uint16_t label) {
  const ImageGeometry& g = map.geometry();
  const auto is = [&](long i, long j, long k) {
    return i >= 0 && j >= 0 && k >= 0 && i < long(g.size[0]) && j < long(g.size[1]) &&
           k < long(g.size[2]) && map.at(std::size_t(i), std::size_t(j), std::size_t(k)) == label;
  };
  std::vector<Vec3> faces;
  for (long k = -1; k < long(g.size[2]); ++k) {
    for (long j = -1; j < long(g.size[1]); ++j) {
      for (long i = -1; i < long(g.size[0]); ++i) {
        const long p[3] = {i, j, k};
        for (int a = 0; a < 3; ++a) {
          long q[3] = {i, j, k};
          ++q[a];
          if (is(i, j, k) != is(q[0], q[1], q[2])) {
            Vec3 c;
            for (int b = 0; b < 3; ++b) {
              c[b] = (double(p[b]) + (b == a ? 0.5 : 0.0)) * g.spacing[b];
            }
            faces.push_back(c);
          }
        }
      }
    }
  }
  return faces;
}

}  // namespace

TEST(SignedDistanceField, EqualsTheDistanceToTheNearestBoundaryFaceByBruteForce) {
  const ImageGeometry g = metricsGrid({15, 13, 11}, {0.8, 1.1, 2.0});
  LabelMap map("blobs", g);
  std::mt19937 rng(11);
  delineate::test::paintBlobs(map, 3, rng, 3, 2.0, 5.0);
  paintBox(map, {0, 0, 0}, {3, 3, 2}, 3);  // touching the grid's corner
  paintBall(map, {10, 8, 6}, 2.5, 4);      // another label: not of label 3
  const DistanceField f = wholeField(map, 3);
  const std::vector<Vec3> faces = boundaryFaces(map, 3);
  ASSERT_FALSE(faces.empty());
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        double best = INFINITY;
        for (const Vec3& c : faces) {
          const double x = double(i) * g.spacing[0] - c[0], y = double(j) * g.spacing[1] - c[1],
                       z = double(k) * g.spacing[2] - c[2];
          best = std::min(best, x * x + y * y + z * z);
        }
        const double expected = map.at(i, j, k) == 3 ? -std::sqrt(best) : std::sqrt(best);
        ASSERT_NEAR(voxel(f, i, j, k), expected, 1e-5 * (1 + std::abs(expected)))
            << i << " " << j << " " << k;
        EXPECT_DOUBLE_EQ(f.at(double(i), double(j), double(k)), double(voxel(f, i, j, k)));
      }
    }
  }
}

TEST(SignedDistanceField, HalfSpaceReadsItsDistanceAlongK) {
  // Label in k < 5 over the whole i, j range: outside, the distance to the face at k = 4.5;
  // inside, to that face or to the grid's sides and bottom (outside the grid is not of the
  // label).
  const ImageGeometry g = metricsGrid({9, 7, 12}, {0.5, 0.75, 1.5});
  LabelMap map("slab", g);
  paintBox(map, {0, 0, 0}, {9, 7, 5}, 1);
  const DistanceField f = wholeField(map, 1);
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        double expected = (double(k) - 4.5) * g.spacing[2];
        if (k < 5) {
          const double sides =
              std::min({(double(i) + 0.5) * g.spacing[0], (8.5 - double(i)) * g.spacing[0],
                        (double(j) + 0.5) * g.spacing[1], (6.5 - double(j)) * g.spacing[1],
                        (double(k) + 0.5) * g.spacing[2], -expected});
          expected = -sides;
        }
        ASSERT_NEAR(voxel(f, i, j, k), expected, 1e-5) << i << " " << j << " " << k;
      }
    }
  }
  // Between voxel centres: linear along k, zero midway across the face.
  EXPECT_NEAR(f.at(4, 3, 4.5), 0.0, 1e-6);
  EXPECT_NEAR(f.at(4, 3, 7.25), 2.75 * 1.5, 1e-5);
}

TEST(SignedDistanceField, SpheresInsideOnAndOutsideReadTheirOffsetInAnAnisotropicGrid) {
  const ImageGeometry g = metricsGrid({41, 41, 17}, {0.8, 0.8, 2.0});
  const Vec3 centre{20, 20, 8};
  const double radius = 10;
  LabelMap map("ball", g);
  paintBall(map, centre, radius, 7);
  const DistanceField f = wholeField(map, 7);
  const double diagonal = std::sqrt(0.8 * 0.8 + 0.8 * 0.8 + 2.0 * 2.0);
  // Points spread over each sphere (a Fibonacci lattice).
  constexpr int kPoints = 400;
  for (const double offset : {-2.0, 0.0, 3.0}) {
    double sumError = 0;
    for (int n = 0; n < kPoints; ++n) {
      const double z = 1.0 - 2.0 * (n + 0.5) / kPoints;
      const double r = std::sqrt(1.0 - z * z), phi = n * 2.399963229728653;
      const double mm = radius + offset;
      const double value = f.at(centre[0] + mm * r * std::cos(phi) / 0.8,
                                centre[1] + mm * r * std::sin(phi) / 0.8, centre[2] + mm * z / 2.0);
      ASSERT_NEAR(value, offset, diagonal) << "offset " << offset << " point " << n;
      sumError += value - offset;
    }
    EXPECT_NEAR(sumError / kPoints, 0.0, 0.5) << "mean error at offset " << offset;
  }
}

TEST(SignedDistanceField, IsAboutZeroMidwayBetweenInsideAndOutsideNeighbours) {
  // The vertices of the half-voxel iso-surface of the same mask (discrete flying edges).
  for (const Vec3 spacing : {Vec3{1, 1, 1}, Vec3{0.8, 0.8, 2.0}}) {
    const ImageGeometry g = metricsGrid({30, 30, 16}, spacing);
    LabelMap map("ball", g);
    paintBall(map, {14.5, 15, 7.5}, 8.0, 2);
    const DistanceField f = wholeField(map, 2);
    const double hmax = std::max({spacing[0], spacing[1], spacing[2]});
    const double hmin = std::min({spacing[0], spacing[1], spacing[2]});
    const double tolerance = (hmax - hmin) / 4 + 1e-5;
    int vertices = 0;
    for (std::size_t k = 0; k + 1 < g.size[2]; ++k) {
      for (std::size_t j = 0; j + 1 < g.size[1]; ++j) {
        for (std::size_t i = 0; i + 1 < g.size[0]; ++i) {
          const Size3 next[3] = {{i + 1, j, k}, {i, j + 1, k}, {i, j, k + 1}};
          for (const Size3& q : next) {
            if ((map.at(i, j, k) == 2) != (map.at(q[0], q[1], q[2]) == 2)) {
              ++vertices;
              const double value =
                  f.at((double(i) + double(q[0])) / 2, (double(j) + double(q[1])) / 2,
                       (double(k) + double(q[2])) / 2);
              ASSERT_NEAR(value, 0.0, tolerance) << i << " " << j << " " << k;
            }
          }
        }
      }
    }
    EXPECT_GT(vertices, 100);
  }
}

TEST(SignedDistanceField, ABoxSeesTheLabelOutsideItAndClampsSamples) {
  const ImageGeometry g = metricsGrid({24, 20, 14}, {1.0, 0.9, 1.7});
  LabelMap map("ball", g);
  paintBall(map, {8, 9, 6}, 6.0, 5);
  const DistanceField whole = wholeField(map, 5);
  const VoxelBox box{{12, 4, 3}, {22, 15, 40}};  // past the grid along k: clamped to 14
  NullProgress progress;
  const DistanceField part = signedDistanceField(map, 5, box, progress);
  EXPECT_EQ(part.box, (VoxelBox{{12, 4, 3}, {22, 15, 14}}));
  ASSERT_EQ(part.mm.size(), part.box.count());
  for (std::size_t k = 3; k < 14; ++k) {
    for (std::size_t j = 4; j < 15; ++j) {
      for (std::size_t i = 12; i < 22; ++i) {
        ASSERT_EQ(voxel(part, i, j, k), voxel(whole, i, j, k)) << i << " " << j << " " << k;
      }
    }
  }
  EXPECT_DOUBLE_EQ(part.at(-5, 2, 100), double(voxel(part, 12, 4, 13)));
  EXPECT_DOUBLE_EQ(part.at(30, 9, 7), double(voxel(part, 21, 9, 7)));
  EXPECT_NEAR(part.at(12.5, 4, 3),
              0.5 * (double(voxel(part, 12, 4, 3)) + double(voxel(part, 13, 4, 3))), 1e-12);
}

TEST(SignedDistanceField, AbsentLabelIsInfiniteAndErrorsAreReported) {
  const ImageGeometry g = metricsGrid({10, 10, 10}, {1, 1, 1});
  LabelMap map("map", g);
  paintBox(map, {2, 2, 2}, {5, 5, 5}, 1);
  const DistanceField absent = wholeField(map, 2);
  ASSERT_EQ(absent.mm.size(), 1000u);
  for (const float v : absent.mm) {
    ASSERT_TRUE(std::isinf(v) && v > 0);
  }
  EXPECT_TRUE(std::isinf(absent.at(3.5, 4.25, 1.5)));
  EXPECT_GT(absent.at(3.5, 4.25, 1.5), 0);

  NullProgress progress;
  const DistanceField empty =
      signedDistanceField(map, 1, VoxelBox{{3, 3, 12}, {5, 5, 15}}, progress);
  EXPECT_TRUE(empty.box.empty());
  EXPECT_TRUE(std::isinf(empty.at(3, 3, 3)));

  EXPECT_THROW(wholeField(map, 0), Error);
  CancelToken token;
  token.cancel();
  NullProgress cancelled(token);
  EXPECT_THROW(signedDistanceField(map, 1, VoxelBox::whole(g.size), cancelled), CancelledError);
}
