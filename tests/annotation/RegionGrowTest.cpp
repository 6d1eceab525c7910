#include "annotation/ops/RegionGrow.h"

#include <gtest/gtest.h>
#include <itkConnectedThresholdImageFilter.h>

#include <random>

#include "OpsTestSupport.h"
#include "core/Error.h"
#include "core/io/ItkView.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

namespace {

bool inSphere(long i, long j, long k) {
  return (i - 20) * (i - 20) + (j - 20) * (j - 20) + (k - 20) * (k - 20) <= 64;
}

// A cube of 100 (indices 5..34) holding a sphere of 300 (radius 8 at 20,20,20), in 0.
core::VolumePtr sphereInCube() {
  return imageOf(grid({40, 40, 40}), [](long i, long j, long k) {
    return inSphere(i, j, k) ? 300 : inCube(i, j, k, 5, 35) ? 100 : 0;
  });
}

const core::VoxelBox kWhole{{0, 0, 0}, {40, 40, 40}};

class CancelledProgress : public core::ProgressSink {
 public:
  void report(double, std::string_view) override {}
  bool cancelled() const override { return true; }
};

}  // namespace

TEST(RegionGrow, SphereInsideACubeGivesExactlyTheSphere) {
  const auto image = sphereInCube();
  core::NullProgress progress;
  const BoxMask m = regionGrow(*image, {20, 20, 20}, 250, 350, std::nullopt, progress);
  EXPECT_EQ(m.box, (core::VoxelBox{{12, 12, 12}, {29, 29, 29}}));
  EXPECT_EQ(mismatches(m, kWhole, inSphere), 0u);
  // From the cube: the cube without the sphere (connected around it).
  const BoxMask shell = regionGrow(*image, {6, 6, 6}, 50, 150, std::nullopt, progress);
  EXPECT_EQ(mismatches(shell, kWhole,
                       [](long i, long j, long k) {
                         return inCube(i, j, k, 5, 35) && !inSphere(i, j, k);
                       }),
            0u);
}

TEST(RegionGrow, TwoDimensionalFillStaysOnItsSlice) {
  const auto image = sphereInCube();
  core::NullProgress progress;
  for (int axis = 0; axis < 3; ++axis) {
    const BoxMask m = regionGrow(*image, {20, 20, 17}, 250, 350, axis, progress);
    const long fixed = axis == 2 ? 17 : 20;
    EXPECT_EQ(mismatches(m, kWhole,
                         [&](long i, long j, long k) {
                           const long p[3] = {i, j, k};
                           return p[axis] == fixed && inSphere(i, j, k);
                         }),
              0u)
        << "axis " << axis;
    EXPECT_EQ(m.extent()[axis], 1u);
  }
  // Slice 17 of the sphere: the lattice disc of radius sqrt(64 - 9).
  const BoxMask m = regionGrow(*image, {20, 20, 17}, 250, 350, 2, progress);
  std::size_t disc = 0;
  for (long y = -8; y <= 8; ++y) {
    for (long x = -8; x <= 8; ++x) {
      disc += x * x + y * y <= 55;
    }
  }
  EXPECT_EQ(m.count(), disc);
}

TEST(RegionGrow, RangeIsInclusiveAndSeedOutsideGivesNothing) {
  const auto image = sphereInCube();
  core::NullProgress progress;
  EXPECT_EQ(regionGrow(*image, {20, 20, 20}, 300, 300, std::nullopt, progress).count(),
            regionGrow(*image, {20, 20, 20}, 299.5, 300.5, std::nullopt, progress).count());
  EXPECT_EQ(regionGrow(*image, {20, 20, 20}, 300.5, 400, std::nullopt, progress).count(), 0u);
  EXPECT_EQ(regionGrow(*image, {20, 20, 20}, 400, 200, std::nullopt, progress).count(), 0u);
  EXPECT_TRUE(regionGrow(*image, {40, 0, 0}, 0, 1000, std::nullopt, progress).box.empty());
  // A range wider than the pixel type still works.
  EXPECT_EQ(regionGrow(*image, {0, 0, 0}, -1e9, 1e9, std::nullopt, progress).count(), 64000u);
}

TEST(RegionGrow, FloatImagesCompareExactly) {
  const core::ImageGeometry g = grid({8, 1, 1});
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Float32, 8);
  const float values[8] = {0.5f, 0.25f, 0.75f, 0.2499f, 0.3f, 0.9f, 0.5f, 0.5f};
  std::copy(values, values + 8, voxels->as<float>());
  const core::Volume image(g, voxels, {});
  core::NullProgress progress;
  const BoxMask m = regionGrow(image, {0, 0, 0}, 0.25, 0.75, std::nullopt, progress);
  EXPECT_EQ(m.box, (core::VoxelBox{{0, 0, 0}, {3, 1, 1}}));
  EXPECT_EQ(m.count(), 3u);
}

TEST(RegionGrow, MatchesItkConnectedThresholdOnNoise) {
  // Random values make a maze of spans joining in every direction.
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> dist(0, 99);
  const core::ImageGeometry g = grid({37, 41, 29});
  const core::Size3 seed{18, 20, 14};
  const auto image = imageOf(g, [&](long i, long j, long k) {
    const int v = dist(rng);
    return i == 18 && j == 20 && k == 14 ? 0 : v;
  });
  const double lo = 0, hi = 69;  // about 70 % of the voxels: percolates
  core::NullProgress progress;
  const BoxMask ours = regionGrow(*image, seed, lo, hi, std::nullopt, progress);

  using Image = itk::Image<std::int16_t, 3>;
  auto itkFilter = itk::ConnectedThresholdImageFilter<Image, itk::Image<std::uint8_t, 3>>::New();
  itkFilter->SetInput(core::itkImageView<std::int16_t>(*image));
  Image::IndexType index;
  for (unsigned a = 0; a < 3; ++a) {
    index[a] = long(seed[a]);
  }
  itkFilter->SetSeed(index);
  itkFilter->SetLower(std::int16_t(lo));
  itkFilter->SetUpper(std::int16_t(hi));
  itkFilter->SetReplaceValue(1);
  itkFilter->Update();
  const std::uint8_t* ref = itkFilter->GetOutput()->GetBufferPointer();
  std::size_t refCount = 0, differ = 0;
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        const bool r = ref[image->linearIndex(i, j, k)] != 0;
        refCount += r;
        differ += r != (ours.at(i, j, k) != 0);
      }
    }
  }
  EXPECT_GT(refCount, 10000u);
  EXPECT_EQ(differ, 0u);
  EXPECT_EQ(ours.count(), refCount);
}

TEST(RegionGrow, HonoursCancel) {
  const auto image = imageOf(grid({40, 200, 200}), [](long, long, long) { return 1; });
  CancelledProgress cancelled;
  EXPECT_THROW(regionGrow(*image, {0, 0, 0}, 0, 2, std::nullopt, cancelled), core::CancelledError);
}

TEST(RegionGrow, NeighbourhoodRangeIsMeanPlusMinusSd) {
  // Alternating 90 / 110 along x: mean 100, SD very close to 10 over 5x5x5 (65 vs 60 voxels).
  const auto image =
      imageOf(grid({10, 10, 10}), [](long i, long, long) { return i % 2 ? 110 : 90; });
  const auto [lo, hi] = neighbourhoodRange(*image, {5, 5, 5}, 2, 2.5);
  // x = 3..7 holds 110 at 3, 5, 7: mean = (3 * 110 + 2 * 90) / 5 = 102, SD = sqrt(96).
  EXPECT_NEAR(lo, 102 - 2.5 * std::sqrt(96.0), 1e-9);
  EXPECT_NEAR(hi, 102 + 2.5 * std::sqrt(96.0), 1e-9);
  // Clipped at the corner: 3x3x3 voxels, x = 0..2.
  const auto [clo, chi] = neighbourhoodRange(*image, {0, 0, 0}, 2, 1.0);
  EXPECT_NEAR((clo + chi) / 2, (2 * 90.0 + 110) / 3, 1e-9);
}
