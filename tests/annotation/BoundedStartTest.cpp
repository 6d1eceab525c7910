// PointGuidedSegmenter's bounded start: on an image whose tissue varies by far more than its
// noise, one click in a ball of a tissue that runs on through thick bridges to seven more balls
// answers the ball it is in, neither a few voxels (a band as narrow as the noise) nor the whole
// network (a band as wide as the tissue). The variation it measures is the noise on white noise
// (where nothing changes) and the texture on a texture; its border competes only where image
// lies beyond it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "OpsTestSupport.h"
#include "annotation/engine/ClickSimulator.h"
#include "annotation/engine/PointGuidedSegmenter.h"
#include "annotation/engine/RegionCompetition.h"
#include "annotation/engine/RoiImage.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

namespace {

constexpr long kSize = 64;
constexpr double kBallRadius = 8;

// Balls at the corners of a cube (centres 16 and 48 along each axis), joined along its edges by
// rods of radius 4: one connected tissue.
bool inNetwork(long i, long j, long k) {
  const long c[3] = {i, j, k};
  double ball = 0;
  double off[3] = {};  // squared distance from the rod along each axis
  for (int a = 0; a < 3; ++a) {
    const double d = double(c[a] - (c[a] < kSize / 2 ? 16 : 48));
    ball += d * d;
    for (int b = 0; b < 3; ++b) {
      off[b] += b == a ? 0 : d * d;
    }
  }
  bool inRod = false;
  for (int a = 0; a < 3; ++a) {
    inRod |= c[a] >= 16 && c[a] <= 48 && off[a] <= 16;
  }
  return ball <= kBallRadius * kBallRadius || inRod;
}

bool inFirstBall(long i, long j, long k) {
  const double d = double((i - 16) * (i - 16) + (j - 16) * (j - 16) + (k - 16) * (k - 16));
  return d <= kBallRadius * kBallRadius;
}

// The tissue at 900 in 1200, both drifting by up to `texture` over some ten voxels, with noise
// of SD `noise` (0: only the integer voxels' rounding, as in an average of many scans).
core::VolumePtr networkImage(double texture, double noise) {
  return imageOf(annotation::testing::grid({kSize, kSize, kSize}), [=](long i, long j, long k) {
    const double drift = texture * std::sin(i / 6.0) * std::cos(j / 7.0) * std::sin(k / 5.0 + 1);
    return (inNetwork(i, j, k) ? 900 : 1200) + drift + noise * voxelNoise(i, j, k);
  });
}

}  // namespace

// Before the bounded start: 889 voxels (Dice 0.49), the band as narrow as the rounding.
TEST(BoundedStart, OneClickInATexturedNetworkOfOneTissueAnswersTheBallItIsIn) {
  const auto image = networkImage(60, 0);
  core::NullProgress progress;
  Guidance g;
  g.add({16, 16, 16}, true);
  const BoxMask m = PointGuidedSegmenter().segment(*image, g, progress);
  const BoxMask truth = maskOf(core::VoxelBox::whole({kSize, kSize, kSize}), inFirstBall);
  EXPECT_GT(dice(m, truth), 0.85) << m.count() << " voxels against the ball's " << truth.count();
  // Nothing of the other balls.
  EXPECT_LT(m.contentBox().hi[0], 40u);
  EXPECT_LT(m.contentBox().hi[1], 40u);
  EXPECT_LT(m.contentBox().hi[2], 40u);
}

TEST(BoundedStart, TheVariationMeasuredIsTheNoiseOnWhiteNoiseAndTheTextureOnATexture) {
  SmoothedImageCache cache;
  core::NullProgress progress;
  const core::VoxelBox box{{0, 0, 0}, {40, 40, 40}};
  const RoiImage noisy = makeRoiImage(*networkImage(0, 40), box, 0, cache, progress);
  const double noiseRatio = smoothedVariationSd(noisy) / noisy.smoothNoiseSd;
  EXPECT_GT(noiseRatio, 0.5);
  EXPECT_LT(noiseRatio, 3.0);
  SmoothedImageCache other;
  const RoiImage textured = makeRoiImage(*networkImage(60, 0), box, 0, other, progress);
  EXPECT_GT(smoothedVariationSd(textured) / textured.smoothNoiseSd, 10.0);
}

// The border as background (RegionCompetition): only the faces of the region of interest that
// have something beyond them within the bounds compete. One uniform tissue filling the image: a
// region of interest that is the whole image keeps all of it (its faces were once all
// background, and an image one slice thick lost every voxel but the click); one whose high x face
// has more image beyond it loses what lies nearer to that face than to the click.
TEST(BoundedStart, OnlyFacesWithSomethingBeyondThemAreBackground) {
  const core::Size3 size{32, 32, 1};
  const auto image = imageOf(annotation::testing::grid(size),
                             [](long i, long j, long k) { return 1000 + 2 * voxelNoise(i, j, k); });
  SmoothedImageCache cache;
  core::NullProgress progress;
  const core::VoxelBox whole = core::VoxelBox::whole(size);
  const RoiImage roi = makeRoiImage(*image, whole, 0, cache, progress);
  const std::vector<GuidanceClick> clicks{{{8, 16, 0}, true}};
  const IntensityModel model(roi, clicks, 50.0);  // a band that holds every voxel
  RegionParams params;
  params.open = false;
  params.borderIsBackground = true;
  params.bounds = whole;
  const auto all = competeForRegion(roi, model, clicks, params, progress);
  EXPECT_EQ(std::count(all.begin(), all.end(), std::uint8_t{1}), 32 * 32);
  params.bounds.hi[0] = 64;  // more image beyond the high x face
  const auto cut = competeForRegion(roi, model, clicks, params, progress);
  for (long j = 0; j < 32; ++j) {
    EXPECT_EQ(cut[std::size_t(4 + 32 * j)], 1) << j;   // nearer the click
    EXPECT_EQ(cut[std::size_t(30 + 32 * j)], 0) << j;  // nearer the open face
  }
}
