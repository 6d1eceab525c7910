// Slice ordering and grid checks: sorting along the normal, duplicates, gaps, uneven spacing,
// gantry tilt, missing positions.
#include "core/io/DicomSliceGeometry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "DicomTestSupport.h"
#include "TempDir.h"

using namespace delineate::core;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

DicomSlicePlacement at(double z, int instance, Vec3 shift = {0, 0, 0}) {
  DicomSlicePlacement p;
  p.position = Vec3{-10 + shift[0], 20 + shift[1], z + shift[2]};
  p.orientation = std::array<double, 6>{1, 0, 0, 0, 1, 0};
  p.pixelSpacing = std::array<double, 2>{0.5, 0.6};
  p.sliceThickness = 1;
  p.instanceNumber = instance;
  p.file = "f" + std::to_string(instance);
  return p;
}

bool anyWarningContains(const DicomStackLayout& l, const std::string& text) {
  for (const auto& w : l.warnings) {
    if (w.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace

TEST(DicomSliceGeometry, SortsAlongTheNormalNotByInstanceNumber) {
  const auto l = layoutDicomSlices({at(4, 1), at(0, 2), at(2, 3), at(6, 0)}, 10, 12, 0, 0);
  ASSERT_EQ(l.order, (std::vector<std::size_t>{1, 2, 0, 3}));
  EXPECT_TRUE(l.warnings.empty());
  EXPECT_EQ(l.geometry.size, (Size3{12, 10, 4}));
  EXPECT_DOUBLE_EQ(l.geometry.spacing[0], 0.6);  // between columns
  EXPECT_DOUBLE_EQ(l.geometry.spacing[1], 0.5);  // between rows
  EXPECT_DOUBLE_EQ(l.geometry.spacing[2], 2.0);
  EXPECT_DOUBLE_EQ(l.geometry.origin[2], 0.0);
}

TEST(DicomSliceGeometry, DuplicatePositionsKeepTheFirstAndWarn) {
  const auto l = layoutDicomSlices({at(0, 1), at(2, 2), at(2, 5), at(4, 3)}, 4, 4, 0, 0);
  EXPECT_EQ(l.order, (std::vector<std::size_t>{0, 1, 3}));
  EXPECT_TRUE(anyWarningContains(l, "share a position")) << l.warnings.size();
  EXPECT_TRUE(anyWarningContains(l, "f5"));
}

TEST(DicomSliceGeometry, MissingSliceGivesAWarning) {
  std::vector<DicomSlicePlacement> frames;
  for (int k = 0; k < 10; ++k) {
    if (k != 6) {
      frames.push_back(at(k * 1.5, k + 1));
    }
  }
  const auto l = layoutDicomSlices(frames, 4, 4, 0, 0);
  EXPECT_EQ(l.geometry.size[2], 9u);
  EXPECT_TRUE(anyWarningContains(l, "missing slices")) << (l.warnings.empty() ? "" : l.warnings[0]);
  EXPECT_TRUE(anyWarningContains(l, "about 1 slice(s) missing"));
  EXPECT_NEAR(l.geometry.spacing[2], 13.5 / 8, 1e-9);  // mean spacing: first and last stay right
}

TEST(DicomSliceGeometry, UnevenSpacingGivesAWarning) {
  const auto l =
      layoutDicomSlices({at(0, 1), at(1, 2), at(2.2, 3), at(3, 4), at(4, 5)}, 4, 4, 0, 0);
  EXPECT_TRUE(anyWarningContains(l, "uneven slice spacing"));
  EXPECT_FALSE(anyWarningContains(l, "missing"));
}

TEST(DicomSliceGeometry, TinyRoundingIsNotUneven) {
  const auto l =
      layoutDicomSlices({at(0, 1), at(1.0004, 2), at(1.9998, 3), at(3.0001, 4)}, 4, 4, 0, 0);
  EXPECT_TRUE(l.warnings.empty()) << l.warnings[0];
}

TEST(DicomSliceGeometry, WildlyIrregularPositionsAreRefused) {
  try {
    layoutDicomSlices({at(0, 1), at(1, 2), at(2, 3), at(3, 4), at(300, 5)}, 4, 4, 0, 0);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "f5");
    EXPECT_NE(std::string(e.what()).find("irregular"), std::string::npos);
  }
}

TEST(DicomSliceGeometry, GantryTiltGivesAnOrthogonalGridAndTheShear) {
  // Each slice 2 mm up and 0.5 mm toward posterior: a tilt of atan(0.25) = 14 degrees.
  std::vector<DicomSlicePlacement> frames;
  for (int k = 0; k < 5; ++k) {
    frames.push_back(at(2.0 * k, k + 1, {0, 0.5 * k, 0}));
  }
  const auto l = layoutDicomSlices(frames, 4, 4, 0, 14.04);
  EXPECT_TRUE(anyWarningContains(l, "gantry tilt of 14"));
  EXPECT_TRUE(anyWarningContains(l, "GantryDetectorTilt 14"));
  EXPECT_EQ(l.geometry.direction, (Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_DOUBLE_EQ(l.geometry.spacing[2], 2.0);
  // The grid plus k times the shear reproduces every slice's position.
  for (std::size_t k = 0; k < 5; ++k) {
    const Vec3 p = l.geometry.indexToWorld({0, 0, static_cast<double>(k)});
    const Vec3 want = *frames[l.order[k]].position;
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(p[a] + l.shearPerSlice[a] * static_cast<double>(k), want[a], 1e-9);
    }
  }
}

TEST(DicomSliceGeometry, TiltedSeriesIsResampledToWorldPositions) {
  TempDir dir;
  // A sheared grid (as a tilted gantry writes it): slice k starts 0.6 mm further posterior.
  ImageGeometry g = axialGeometry(24, 20, 6);
  g.spacing = {1.0, 1.0, 1.0};
  const Vec3 step = normalized({0, 0.6, 2.0});
  g.spacing[2] = std::sqrt(0.36 + 4.0);
  g.direction = {1, 0, step[0], 0, 1, step[1], 0, 0, step[2]};
  // Values are a linear function of world x and y: bilinear resampling keeps them exact.
  const auto tilted = makeVolume(ScalarType::Float32, g, fixedInfo("CT"),
                                 [&](std::size_t i, std::size_t j, std::size_t k) {
                                   const Vec3 w = g.indexToWorld({double(i), double(j), double(k)});
                                   return 10.0 * w[0] + 3.0 * w[1];
                                 });
  writeSeries(*tilted, dir.path());
  const auto v = loadFolder(dir.path());
  ASSERT_FALSE(v->info().warnings.empty());
  EXPECT_NE(v->info().warnings[0].find("gantry tilt"), std::string::npos) << v->info().warnings[0];
  EXPECT_EQ(v->geometry().direction, (Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  for (std::size_t k = 0; k < 6; ++k) {
    for (std::size_t j = 4; j < 20; ++j) {  // rows that stay inside every shifted slice
      for (std::size_t i = 0; i < 24; i += 5) {
        const Vec3 w = v->geometry().indexToWorld({double(i), double(j), double(k)});
        ASSERT_NEAR(v->valueAt(i, j, k), 10.0 * w[0] + 3.0 * w[1], 0.05)
            << i << "," << j << "," << k;
      }
    }
  }
}

TEST(DicomSliceGeometry, MissingPositionsStackByInstanceNumber) {
  auto a = at(0, 2), b = at(0, 1);
  a.position.reset();
  b.position.reset();
  const auto l = layoutDicomSlices({a, b}, 4, 4, 3.0, 0);
  EXPECT_EQ(l.order, (std::vector<std::size_t>{1, 0}));
  EXPECT_DOUBLE_EQ(l.geometry.spacing[2], 3.0);
  EXPECT_TRUE(anyWarningContains(l, "without ImagePositionPatient"));
}

TEST(DicomSliceGeometry, SingleImageWithoutGeometryIsA2dImage) {
  DicomSlicePlacement p;
  p.file = "mammo";
  const auto l = layoutDicomSlices({p}, 30, 20, 0, 0);
  EXPECT_EQ(l.geometry.size, (Size3{20, 30, 1}));
  EXPECT_EQ(l.warnings.size(), 1u);  // no pixel spacing
}

TEST(DicomSliceGeometry, PlaneNames) {
  EXPECT_EQ(planeName({1, 0, 0, 0, 1, 0}), "axial");
  EXPECT_EQ(planeName({1, 0, 0, 0, 0, -1}), "coronal");
  EXPECT_EQ(planeName({0, 1, 0, 0, 0, -1}), "sagittal");
  const double c = std::cos(std::numbers::pi / 5), s = std::sin(std::numbers::pi / 5);
  EXPECT_EQ(planeName({1, 0, 0, 0, c, s}), "oblique");
}

TEST(DicomSliceGeometry, DeletedFileInAWrittenSeriesWarnsAboutTheGap) {
  TempDir dir;
  const auto files = writeSeries(*makeCt(axialGeometry(8, 8, 10)), dir.path());
  fs::remove(files[4]);
  const auto v = loadFolder(dir.path());
  EXPECT_EQ(v->geometry().size[2], 9u);
  ASSERT_FALSE(v->info().warnings.empty());
  EXPECT_NE(v->info().warnings[0].find("missing slices"), std::string::npos)
      << v->info().warnings[0];
}

TEST(DicomSliceGeometry, UnevenlySpacedWrittenSeriesWarns) {
  TempDir dir;
  // Two series halves with different spacing, same series UID: the loader sees uneven spacing.
  ImageGeometry g = axialGeometry(8, 8, 4);
  writeSeries(*makeCt(g), dir.path());
  g.origin[2] += 4 * g.spacing[2] + 0.5;  // the next block starts 3 mm after the last slice
  g.spacing[2] = 3.0;
  DicomWriteOptions options;
  options.filePrefix = "B";
  NullProgress progress;
  writeDicomSeries(*makeCt(g), dir.path(), options, progress);
  const auto v = loadFolder(dir.path());
  EXPECT_EQ(v->geometry().size[2], 8u);
  ASSERT_FALSE(v->info().warnings.empty());
  EXPECT_NE(v->info().warnings[0].find("uneven slice spacing"), std::string::npos)
      << v->info().warnings[0];
}
