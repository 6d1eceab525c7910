#include "annotation/ops/SmoothMask.h"

#include <gtest/gtest.h>

#include <array>

#include "OpsTestSupport.h"
#include "core/Error.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

namespace {

const core::VoxelBox kBox{{0, 0, 0}, {20, 20, 20}};

// Brute-force binary erosion / dilation with the ball ITK builds for integer radius r per axis:
// offsets d with sum (d[a] / (r[a] + 0.5))^2 <= 1. Outside the mask is background.
std::vector<std::array<long, 3>> ball(std::array<long, 3> r) {
  std::vector<std::array<long, 3>> offsets;
  for (long z = -r[2]; z <= r[2]; ++z) {
    for (long y = -r[1]; y <= r[1]; ++y) {
      for (long x = -r[0]; x <= r[0]; ++x) {
        const double q = (x / (r[0] + 0.5)) * (x / (r[0] + 0.5)) +
                         (y / (r[1] + 0.5)) * (y / (r[1] + 0.5)) +
                         (z / (r[2] + 0.5)) * (z / (r[2] + 0.5));
        if (q <= 1.0) {
          offsets.push_back({x, y, z});
        }
      }
    }
  }
  return offsets;
}

BoxMask morph(const BoxMask& m, const std::vector<std::array<long, 3>>& se, bool dilate) {
  return maskOf(m.box, [&](long i, long j, long k) {
    for (const auto& d : se) {
      const long p[3] = {i + d[0], j + d[1], k + d[2]};
      const bool in = p[0] >= 0 && p[1] >= 0 && p[2] >= 0 &&
                      m.at(std::size_t(p[0]), std::size_t(p[1]), std::size_t(p[2]));
      if (dilate && in) {
        return true;
      }
      if (!dilate && !in) {
        return false;
      }
    }
    return !dilate;
  });
}

bool cube(long i, long j, long k) {
  return inCube(i, j, k, 6, 14);
}
bool spur(long i, long j, long k) {  // a 1-voxel-thin spike out of the +x face
  return j == 10 && k == 10 && i >= 14 && i < 18;
}

}  // namespace

TEST(SmoothMask, OpeningRemovesAOneVoxelSpur) {
  const BoxMask m =
      maskOf(kBox, [](long i, long j, long k) { return cube(i, j, k) || spur(i, j, k); });
  core::NullProgress progress;
  const BoxMask r = smoothMask(m, SmoothingKind::Opening, 1.0, {1, 1, 1}, progress);
  EXPECT_EQ(r.box, kBox);
  for (long i = 14; i < 18; ++i) {
    EXPECT_EQ(r.at(std::size_t(i), 10, 10), 0) << i;
  }
  EXPECT_EQ(r.at(10, 10, 10), 1);
  EXPECT_EQ(r.at(6, 10, 10), 1);
  // Exactly the brute-force opening: the cube minus its 8 corners (the radius-1 ball is the
  // 18-neighbourhood, which cannot reach a corner from inside).
  const auto se = ball({1, 1, 1});
  ASSERT_EQ(se.size(), 19u);
  const BoxMask expected = morph(morph(m, se, false), se, true);
  EXPECT_EQ(r.bits, expected.bits);
  EXPECT_EQ(r.count(), 8u * 8 * 8 - 8);
}

TEST(SmoothMask, ClosingFillsAOneVoxelHole) {
  const BoxMask m = maskOf(kBox, [](long i, long j, long k) {
    return cube(i, j, k) && !(i == 9 && j == 10 && k == 10);
  });
  core::NullProgress progress;
  const BoxMask r = smoothMask(m, SmoothingKind::Closing, 1.0, {1, 1, 1}, progress);
  EXPECT_EQ(mismatches(r, kBox, cube), 0u);
}

TEST(SmoothMask, ClosingBridgesAGapInATightBox) {
  // Two slabs one voxel apart, in a box cut tight around them: the gap fills except its 4
  // corner voxels (the 18-neighbourhood ball cannot close a corner), exactly as the brute-force
  // closing computed with room around the mask.
  const core::VoxelBox tight{{3, 3, 3}, {12, 9, 9}};
  const BoxMask m = maskOf(tight, [](long i, long, long) { return i != 7; });
  core::NullProgress progress;
  const BoxMask r = smoothMask(m, SmoothingKind::Closing, 1.0, {1, 1, 1}, progress);
  EXPECT_EQ(r.box, tight);
  const auto se = ball({1, 1, 1});
  const BoxMask roomy = m.reboxed({{0, 0, 0}, {15, 12, 12}});
  const BoxMask expected = morph(morph(roomy, se, true), se, false).reboxed(tight);
  EXPECT_EQ(r.bits, expected.bits);
  EXPECT_EQ(r.count(), tight.count() - 4);
  EXPECT_EQ(r.at(7, 5, 5), 1);
  EXPECT_EQ(r.at(7, 3, 3), 0);
}

TEST(SmoothMask, MedianRemovesSpurAndFillsHole) {
  const BoxMask m = maskOf(kBox, [](long i, long j, long k) {
    return (cube(i, j, k) || spur(i, j, k)) && !(i == 9 && j == 10 && k == 10);
  });
  core::NullProgress progress;
  const BoxMask r = smoothMask(m, SmoothingKind::Median, 1.0, {1, 1, 1}, progress);
  EXPECT_EQ(r.at(9, 10, 10), 1);
  EXPECT_EQ(r.at(15, 10, 10), 0);
  // A 3x3x3 majority keeps a face (>= 18 of 27 set) and drops edges (12) and corners (8).
  EXPECT_EQ(mismatches(r, kBox,
                       [](long i, long j, long k) {
                         if (!cube(i, j, k)) {
                           return false;
                         }
                         const int onFace =
                             (i == 6 || i == 13) + (j == 6 || j == 13) + (k == 6 || k == 13);
                         return onFace <= 1;
                       }),
            0u);
}

TEST(SmoothMask, RadiusIsConvertedPerAxisFromMm) {
  // A one-slice-thick plate on 1x1x3 mm voxels: a 1 mm opening uses no z extent (1 / 3 rounds
  // to 0), so the plate survives; with isotropic voxels it vanishes.
  const BoxMask plate = maskOf(
      kBox, [](long i, long j, long k) { return k == 10 && i >= 4 && i < 16 && j >= 4 && j < 16; });
  core::NullProgress progress;
  const BoxMask aniso = smoothMask(plate, SmoothingKind::Opening, 1.0, {1, 1, 3}, progress);
  // In 2D the radius-1 ball is the full 3x3 square, which a square survives unchanged.
  EXPECT_EQ(aniso.bits, plate.bits);
  EXPECT_EQ(smoothMask(plate, SmoothingKind::Opening, 1.0, {1, 1, 1}, progress).count(), 0u);
  // A radius under half a voxel on every axis does nothing.
  EXPECT_EQ(smoothMask(plate, SmoothingKind::Opening, 0.4, {1, 1, 1}, progress).bits, plate.bits);
}

TEST(SmoothMask, HonoursCancel) {
  class Cancelled : public core::ProgressSink {
   public:
    void report(double, std::string_view) override {}
    bool cancelled() const override { return true; }
  } cancelled;
  const BoxMask m = maskOf(kBox, cube);
  EXPECT_THROW(smoothMask(m, SmoothingKind::Closing, 1.0, {1, 1, 1}, cancelled),
               core::CancelledError);
}
