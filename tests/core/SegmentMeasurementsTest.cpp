#include "core/measure/SegmentMeasurements.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/sample/SampleCase.h"

using namespace delineate::core;

TEST(SegmentMeasurements, BallAndBoxHaveTheirGeometricValues) {
  ImageGeometry g;
  g.size = {60, 60, 30};
  g.spacing = {0.5, 0.5, 1.0};
  LabelMap labels(
      "m", g,
      {{.label = 1, .name = "Ball"}, {.label = 2, .name = "Box"}, {.label = 3, .name = "Empty"}});
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
  std::uint16_t* lab = labels.mutableData();
  for (std::size_t k = 0; k < 30; ++k) {
    for (std::size_t j = 0; j < 60; ++j) {
      for (std::size_t i = 0; i < 60; ++i) {
        const double x = (double(i) - 20) * 0.5, y = (double(j) - 30) * 0.5, z = double(k) - 15;
        const std::size_t n = labels.index(i, j, k);
        voxels->as<std::int16_t>()[n] = static_cast<std::int16_t>(i);  // value = column
        if (x * x + y * y + z * z <= 8.0 * 8.0) {
          lab[n] = 1;
        } else if (i >= 45 && i < 55 && j >= 10 && j < 20 && k >= 5 && k < 9) {
          lab[n] = 2;  // 10 x 10 x 4 voxels = 5 x 5 x 4 mm
        }
      }
    }
  }
  const Volume image(g, voxels, VolumeInfo{});
  NullProgress progress;
  const auto rows = measureSegments(labels, &image, progress);
  ASSERT_EQ(rows.size(), 3u);
  // Ball of radius 8 mm: 2.14 ml; voxelised it is within a few percent.
  EXPECT_NEAR(rows[0].volumeMl, 4.0 / 3.0 * std::numbers::pi * 512 / 1000, 0.06);
  EXPECT_NEAR(rows[0].largestDiameterMm, 16.0, 0.6);
  EXPECT_NEAR(rows[0].mean, 20.0, 0.05);  // symmetric about column 20
  EXPECT_EQ(rows[0].min, 4);
  EXPECT_EQ(rows[0].max, 36);
  EXPECT_EQ(rows[1].voxels, 400u);
  EXPECT_NEAR(rows[1].volumeMl, 0.1, 1e-9);
  // Box diagonal between voxel centres: (4.5, 4.5, 3) mm.
  EXPECT_NEAR(rows[1].largestDiameterMm, std::sqrt(4.5 * 4.5 * 2 + 9), 1e-9);
  EXPECT_NEAR(rows[1].mean, 49.5, 1e-9);
  EXPECT_NEAR(rows[1].sd, std::sqrt(8.25 * 400 / 399.0), 1e-9);
  EXPECT_EQ(rows[2].voxels, 0u);
  const std::string tsv = measurementsToTsv(rows);
  EXPECT_NE(tsv.find("Box\t400\t0.100"), std::string::npos) << tsv;
}

TEST(SegmentMeasurements, SampleLiverVolumeMatchesItsVoxelCount) {
  const auto ct = sample::makeAbdomenCt(3);
  LabelMap labels("gt", ct.labels->geometry(),
                  std::const_pointer_cast<VoxelBuffer>(ct.labels->sharedVoxels()), ct.segments);
  NullProgress progress;
  const auto rows = measureSegments(labels, ct.image.get(), progress);
  EXPECT_EQ(rows[0].name, "Liver");
  EXPECT_NEAR(rows[0].mean, 62, 6);
  EXPECT_GT(rows[0].largestDiameterMm, 140);  // a 156 x 164 x 144 mm ellipsoid clipped by the body
  EXPECT_LT(rows[0].largestDiameterMm, 200);
}
