// Our metrics against ITK on the same label maps: itk::LabelOverlapMeasuresImageFilter for the
// overlap measures (within 1e-6), itk::HausdorffDistanceImageFilter for the Hausdorff distance
// (within one voxel diagonal, on shapes where its all-voxel definition and our surface one
// coincide), and ITK's own building blocks (SignedMaurerDistanceMapImageFilter of one
// BinaryContourImageFilter boundary read at the other's) for HD95, ASSD and surface Dice.
#include <itkBinaryContourImageFilter.h>
#include <itkBinaryThresholdImageFilter.h>
#include <itkHausdorffDistanceImageFilter.h>
#include <itkImageRegionConstIterator.h>
#include <itkLabelOverlapMeasuresImageFilter.h>
#include <itkSignedMaurerDistanceMapImageFilter.h>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "MetricsTestSupport.h"
#include "core/io/ItkView.h"
#include "core/metrics/LabelComparison.h"

using namespace delineate::core;
using delineate::test::metricsGrid;
using delineate::test::paintBall;
using delineate::test::paintBox;

namespace {

using LabelImage = itk::Image<std::uint16_t, 3>;
using MaskImage = itk::Image<std::uint8_t, 3>;
using FloatImage = itk::Image<float, 3>;

LabelImage::Pointer view(const LabelMap& map) {
  return itkImageView<std::uint16_t>(map.geometry(), map.sharedVoxels());
}

MaskImage::Pointer binary(const LabelMap& map, std::uint16_t label) {
  auto threshold = itk::BinaryThresholdImageFilter<LabelImage, MaskImage>::New();
  threshold->SetInput(view(map));
  threshold->SetLowerThreshold(label);
  threshold->SetUpperThreshold(label);
  threshold->SetInsideValue(1);
  threshold->SetOutsideValue(0);
  threshold->Update();
  return threshold->GetOutput();
}

// The face-connected boundary the ITK way: BinaryContourImageFilter with FullyConnected off
// marks the voxels with a background face neighbour.
MaskImage::Pointer contourOf(const MaskImage::Pointer& mask) {
  auto contour = itk::BinaryContourImageFilter<MaskImage, MaskImage>::New();
  contour->SetInput(mask);
  contour->SetForegroundValue(1);
  contour->SetBackgroundValue(0);
  contour->SetFullyConnected(false);
  contour->Update();
  return contour->GetOutput();
}

// Distances (mm) from the contour voxels of `from` to the contour voxels of `to`: the Maurer
// distance map of `to`'s contour (SignedMaurerDistanceMapImageFilter's own border of a
// one-voxel shell is the shell itself) read at `from`'s contour voxels.
std::vector<double> itkSurfaceDistances(const MaskImage::Pointer& from,
                                        const MaskImage::Pointer& to) {
  const MaskImage::Pointer queries = contourOf(from);
  auto distance = itk::SignedMaurerDistanceMapImageFilter<MaskImage, FloatImage>::New();
  distance->SetInput(contourOf(to));
  distance->SetUseImageSpacing(true);
  distance->SetSquaredDistance(false);
  distance->Update();
  std::vector<double> out;
  itk::ImageRegionConstIterator<MaskImage> c(queries, queries->GetBufferedRegion());
  itk::ImageRegionConstIterator<FloatImage> d(distance->GetOutput(),
                                              distance->GetOutput()->GetBufferedRegion());
  for (; !c.IsAtEnd(); ++c, ++d) {
    if (c.Get() == 1) {
      out.push_back(std::abs(double(d.Get())));
    }
  }
  return out;
}

double itkHausdorff(const LabelMap& ref, const LabelMap& test, std::uint16_t label) {
  auto hd = itk::HausdorffDistanceImageFilter<MaskImage, MaskImage>::New();
  hd->SetInput1(binary(ref, label));
  hd->SetInput2(binary(test, label));
  hd->SetUseImageSpacing(true);
  hd->Update();
  return hd->GetHausdorffDistance();
}

// Random balls kept `margin` voxels away from the grid's edge (ITK's contour does not treat
// outside the grid as background; ours does).
void paintInnerBlobs(LabelMap& map, std::uint16_t label, std::mt19937& rng, int balls,
                     double maxRadiusMm) {
  const ImageGeometry& g = map.geometry();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int b = 0; b < balls; ++b) {
    Vec3 c;
    for (int a = 0; a < 3; ++a) {
      const double margin = maxRadiusMm / g.spacing[a] + 2;
      c[a] = margin + u(rng) * (double(g.size[a]) - 1 - 2 * margin);
    }
    paintBall(map, c, maxRadiusMm * (0.4 + 0.6 * u(rng)), label);
  }
}

double voxelDiagonal(const ImageGeometry& g) {
  return std::sqrt(g.spacing[0] * g.spacing[0] + g.spacing[1] * g.spacing[1] +
                   g.spacing[2] * g.spacing[2]);
}

}  // namespace

TEST(MetricsItkAgreement, OverlapMeasuresMatchLabelOverlapMeasuresFilter) {
  const ImageGeometry g = metricsGrid({70, 60, 40}, {0.8, 0.9, 1.7});
  LabelMap ref("ref", g), test("test", g);
  std::mt19937 rng(5);
  for (std::uint16_t label : {1, 2, 7}) {
    paintInnerBlobs(ref, label, rng, 3, 9.0);
    paintInnerBlobs(test, label, rng, 3, 9.0);
  }
  ComparisonOptions options;
  options.surfaceMetrics = false;
  NullProgress progress;
  const auto rows = compareLabelMaps(ref, test, options, progress);
  ASSERT_EQ(rows.size(), 3u);

  auto filter = itk::LabelOverlapMeasuresImageFilter<LabelImage>::New();
  filter->SetSourceImage(view(test));
  filter->SetTargetImage(view(ref));
  filter->Update();
  for (const LabelMetrics& m : rows) {
    const auto l = m.label;
    EXPECT_NEAR(m.overlap.dice, filter->GetDiceCoefficient(l), 1e-6) << l;
    EXPECT_NEAR(m.overlap.jaccard, filter->GetJaccardCoefficient(l), 1e-6) << l;
    EXPECT_NEAR(m.overlap.sensitivity, filter->GetTargetOverlap(l), 1e-6) << l;
    EXPECT_NEAR(m.overlap.sensitivity, 1.0 - filter->GetFalseNegativeError(l), 1e-6) << l;
    EXPECT_NEAR(m.overlap.precision, 1.0 - filter->GetFalsePositiveError(l), 1e-6) << l;
    const double similarity =
        2.0 * m.overlap.volumeDifferenceMl / (m.overlap.testMl + m.overlap.referenceMl);
    EXPECT_NEAR(similarity, filter->GetVolumeSimilarity(l), 1e-6) << l;
  }
}

TEST(MetricsItkAgreement, HausdorffMatchesHausdorffDistanceFilter) {
  const ImageGeometry g = metricsGrid({64, 60, 40}, {0.9, 0.8, 1.5});
  LabelMap ref("ref", g), test("test", g);
  // Equal balls shifted, overlapping; equal balls apart; cubes shifted along two axes.
  paintBall(ref, {18, 20, 14}, 9.0, 1);
  paintBall(test, {22, 17, 15.5}, 9.0, 1);
  paintBall(ref, {45, 40, 12}, 6.0, 2);
  paintBall(test, {50, 48, 24}, 6.0, 2);
  paintBox(ref, {30, 5, 28}, {44, 17, 36}, 3);
  paintBox(test, {33, 7, 28}, {47, 19, 36}, 3);
  NullProgress progress;
  const auto rows = compareLabelMaps(ref, test, {}, progress);
  ASSERT_EQ(rows.size(), 3u);
  for (const LabelMetrics& m : rows) {
    const double itk = itkHausdorff(ref, test, m.label);
    EXPECT_NEAR(m.surface->hausdorffMm, itk, voxelDiagonal(g)) << m.label;
    EXPECT_NEAR(m.surface->hausdorffMm, itk, 1e-4) << m.label;  // in practice: the same voxels
  }
}

TEST(MetricsItkAgreement, SurfaceMetricsMatchMaurerDistancesAtContourVoxels) {
  for (const std::uint32_t seed : {21u, 22u, 23u}) {
    const ImageGeometry g = metricsGrid({72, 64, 36}, {0.75, 0.9, 2.0});
    LabelMap ref("ref", g), test("test", g);
    std::mt19937 rng(seed);
    paintInnerBlobs(ref, 1, rng, 4, 10.0);
    paintInnerBlobs(test, 1, rng, 4, 10.0);
    ComparisonOptions options;
    options.toleranceMm = 1.5;
    NullProgress progress;
    const SurfaceDistanceResult s = *compareLabelMaps(ref, test, options, progress)[0].surface;

    const auto a = binary(ref, 1), b = binary(test, 1);
    const std::vector<double> ab = itkSurfaceDistances(a, b), ba = itkSurfaceDistances(b, a);
    ASSERT_EQ(s.referenceToTest.surfaceVoxels, ab.size()) << seed;
    ASSERT_EQ(s.testToReference.surfaceVoxels, ba.size()) << seed;
    double sum = 0, maxAll = 0;
    std::size_t within = 0;
    for (const auto* d : {&ab, &ba}) {
      for (const double x : *d) {
        sum += x;
        maxAll = std::max(maxAll, x);
        within += x <= 1.5 + 1e-5;
      }
    }
    const double n = double(ab.size() + ba.size());
    const double tol = 1e-4;  // ITK's map is float
    EXPECT_NEAR(s.hausdorffMm, maxAll, tol) << seed;
    EXPECT_NEAR(s.hausdorffPercentileMm,
                std::max(delineate::test::linearPercentile(ab, 95),
                         delineate::test::linearPercentile(ba, 95)),
                tol)
        << seed;
    EXPECT_NEAR(s.averageSymmetricMm, sum / n, tol) << seed;
    EXPECT_NEAR(s.surfaceDice, double(within) / n, 1e-12) << seed;
  }
}
