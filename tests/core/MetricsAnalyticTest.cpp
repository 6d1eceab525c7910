// Overlap and surface metrics on shapes whose answers are known: cubes and balls with known
// overlap and distances, anisotropic spacing, empty masks, many labels, and a brute-force
// reference (every surface voxel against every other) on random blobs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "MetricsTestSupport.h"
#include "core/Error.h"
#include "core/metrics/LabelComparison.h"
#include "core/metrics/OverlapCounts.h"
#include "core/metrics/SurfaceDistances.h"
#include "core/metrics/SurfacePair.h"

using namespace delineate::core;
using delineate::test::metricsGrid;
using delineate::test::paintBall;
using delineate::test::paintBox;

namespace {

const LabelMetrics& only(const std::vector<LabelMetrics>& rows, std::uint16_t label) {
  for (const LabelMetrics& r : rows) {
    if (r.label == label) {
      return r;
    }
  }
  throw std::runtime_error("label missing");
}

OverlapCounts countOverlapsFor(const LabelMap& a, const LabelMap& b) {
  NullProgress progress;
  return countOverlaps(a, b, progress);
}

std::vector<LabelMetrics> compare(const LabelMap& a, const LabelMap& b,
                                  ComparisonOptions options = {}) {
  NullProgress progress;
  return compareLabelMaps(a, b, options, progress);
}

}  // namespace

TEST(MetricsAnalytic, ShiftedCubesHaveTheirOverlapAndDistances) {
  const ImageGeometry g = metricsGrid({48, 40, 36}, {0.8, 0.8, 2.0});
  LabelMap ref("ref", g), test("test", g);
  paintBox(ref, {10, 10, 8}, {30, 30, 28}, 1);   // 20 x 20 x 20 voxels
  paintBox(test, {15, 10, 8}, {35, 30, 28}, 1);  // the same, 5 voxels further along i
  const auto rows = compare(ref, test);
  ASSERT_EQ(rows.size(), 1u);
  const LabelMetrics& m = rows[0];
  EXPECT_EQ(m.counts.reference, 8000u);
  EXPECT_EQ(m.counts.test, 8000u);
  EXPECT_EQ(m.counts.both, 6000u);
  EXPECT_EQ(m.counts.falsePositives(), 2000u);
  EXPECT_EQ(m.counts.falseNegatives(), 2000u);
  EXPECT_DOUBLE_EQ(m.overlap.dice, 0.75);
  EXPECT_DOUBLE_EQ(m.overlap.jaccard, 0.6);
  EXPECT_DOUBLE_EQ(m.overlap.sensitivity, 0.75);
  EXPECT_DOUBLE_EQ(m.overlap.precision, 0.75);
  EXPECT_NEAR(m.overlap.referenceMl, 8000 * 0.8 * 0.8 * 2.0 / 1000, 1e-12);
  EXPECT_DOUBLE_EQ(m.overlap.volumeDifferenceMl, 0.0);
  EXPECT_DOUBLE_EQ(m.overlap.volumeDifferencePercent, 0.0);
  EXPECT_EQ(m.counts.referenceBox, (VoxelBox{{10, 10, 8}, {30, 30, 28}}));
  EXPECT_EQ(m.counts.unionBox(), (VoxelBox{{10, 10, 8}, {35, 30, 28}}));
  ASSERT_TRUE(m.surface);
  // The far face of each cube is 5 voxels (4 mm) from the other cube's face; nothing is further.
  EXPECT_NEAR(m.surface->hausdorffMm, 4.0, 1e-6);
  EXPECT_NEAR(m.surface->referenceToTest.maxMm, 4.0, 1e-6);
  EXPECT_NEAR(m.surface->testToReference.maxMm, 4.0, 1e-6);
  // Surface of a 20^3 cube: 20^3 - 18^3 voxels.
  EXPECT_EQ(m.surface->referenceToTest.surfaceVoxels, 8000u - 5832u);
}

TEST(MetricsAnalytic, InsetCubeDistancesAreExactWithAnisotropicSpacing) {
  const Vec3 sp{0.7, 1.3, 2.5};
  const ImageGeometry g = metricsGrid({40, 40, 40}, sp);
  LabelMap ref("ref", g), test("test", g);
  paintBox(ref, {10, 10, 10}, {30, 30, 30}, 3);   // 20^3
  paintBox(test, {12, 12, 12}, {28, 28, 28}, 3);  // 16^3, 2 voxels inside on every side
  ComparisonOptions options;
  options.toleranceMm = 2 * 0.7;
  const auto rows = compare(ref, test, options);
  const LabelMetrics& m = only(rows, 3);
  EXPECT_EQ(m.counts.both, 4096u);
  EXPECT_DOUBLE_EQ(m.overlap.dice, 2.0 * 4096 / (8000 + 4096));
  EXPECT_DOUBLE_EQ(m.overlap.sensitivity, 4096.0 / 8000);
  EXPECT_DOUBLE_EQ(m.overlap.precision, 1.0);
  const double voxelMl = 0.7 * 1.3 * 2.5 / 1000;
  EXPECT_NEAR(m.overlap.volumeDifferenceMl, (4096.0 - 8000.0) * voxelMl, 1e-12);
  EXPECT_NEAR(m.overlap.volumeDifferencePercent, 100.0 * (4096.0 - 8000.0) / 8000.0, 1e-12);
  const SurfaceDistanceResult& s = *m.surface;
  // The outer cube's corner is 2 voxels from the inner corner along every axis.
  const double corner = 2 * std::sqrt(0.7 * 0.7 + 1.3 * 1.3 + 2.5 * 2.5);
  EXPECT_NEAR(s.hausdorffMm, corner, 1e-5);
  EXPECT_NEAR(s.referenceToTest.maxMm, corner, 1e-5);
  // Every inner surface voxel is 2 voxels from the outer face along its own normal; the nearest
  // is along i (0.7 mm spacing) where that is one of its normals, further otherwise.
  EXPECT_EQ(s.testToReference.surfaceVoxels, 4096u - 2744u);
  EXPECT_NEAR(s.testToReference.maxMm, 2 * 2.5, 1e-5);
  // Inner faces normal to i: (16 x 16 voxels) x 2, all at 1.4 mm; within the tolerance only
  // those (every other inner surface voxel is >= 3 voxels along i, 2.1 mm, from the outer one).
  EXPECT_EQ(s.testToReference.withinTolerance, 2u * 16 * 16);
}

TEST(MetricsAnalytic, ConcentricBallsDifferByTheirRadii) {
  const ImageGeometry g = metricsGrid({64, 64, 64}, {1.0, 1.0, 1.0});
  LabelMap ref("ref", g), test("test", g);
  paintBall(ref, {32, 32, 32}, 20.0, 1);
  paintBall(test, {32, 32, 32}, 16.0, 1);
  const auto rows = compare(ref, test);
  const SurfaceDistanceResult& s = *only(rows, 1).surface;
  const double diagonal = std::sqrt(3.0);
  EXPECT_NEAR(s.hausdorffMm, 4.0, diagonal);
  EXPECT_NEAR(s.hausdorffPercentileMm, 4.0, diagonal);
  EXPECT_NEAR(s.averageSymmetricMm, 4.0, diagonal);
  EXPECT_NEAR(only(rows, 1).overlap.dice, 2.0 * 16 * 16 * 16 / (20 * 20 * 20 + 16 * 16 * 16), 0.02);
}

TEST(MetricsAnalytic, SurfaceDiceCountsDistancesWithinTheTolerance) {
  const ImageGeometry g = metricsGrid({30, 30, 30}, {1.0, 1.0, 1.0});
  LabelMap ref("ref", g), test("test", g);
  paintBox(ref, {5, 5, 5}, {15, 15, 15}, 1);
  paintBox(test, {6, 5, 5}, {16, 15, 15}, 1);  // one voxel along i
  ComparisonOptions options;
  options.toleranceMm = 1.0;
  EXPECT_DOUBLE_EQ(only(compare(ref, test, options), 1).surface->surfaceDice, 1.0);
  options.toleranceMm = 0.5;
  const auto results = compare(ref, test, options);
  const auto& s = *only(results, 1).surface;
  // At 1 mm: each cube's outer face normal to i (10 x 10) and the inside (8 x 8) of its other
  // face normal to i, which lies inside the other cube; the rest of each surface coincides.
  const double n = double(s.referenceToTest.surfaceVoxels + s.testToReference.surfaceVoxels);
  EXPECT_DOUBLE_EQ(s.surfaceDice, (n - 2.0 * (100 + 64)) / n);
  EXPECT_DOUBLE_EQ(s.hausdorffMm, 1.0);
}

TEST(MetricsAnalytic, EmptyMasksFollowTheDocumentedConventions) {
  const ImageGeometry g = metricsGrid({20, 20, 20}, {1.0, 1.0, 1.0});
  LabelMap ref("ref", g), test("test", g);
  paintBox(ref, {2, 2, 2}, {6, 6, 6}, 1);      // only in the reference
  paintBox(test, {8, 8, 8}, {12, 12, 12}, 2);  // only in the test
  ComparisonOptions options;
  options.labels = {1, 2, 9};  // 9 is in neither
  const auto rows = compare(ref, test, options);
  ASSERT_EQ(rows.size(), 3u);
  const double inf = std::numeric_limits<double>::infinity();

  const LabelMetrics& missed = rows[0];  // reference only
  EXPECT_EQ(missed.overlap.dice, 0.0);
  EXPECT_EQ(missed.overlap.jaccard, 0.0);
  EXPECT_EQ(missed.overlap.sensitivity, 0.0);
  EXPECT_TRUE(std::isnan(missed.overlap.precision));
  EXPECT_DOUBLE_EQ(missed.overlap.volumeDifferencePercent, -100.0);
  EXPECT_EQ(missed.surface->hausdorffMm, inf);
  EXPECT_EQ(missed.surface->hausdorffPercentileMm, inf);
  EXPECT_EQ(missed.surface->averageSymmetricMm, inf);
  EXPECT_EQ(missed.surface->surfaceDice, 0.0);
  EXPECT_EQ(missed.surface->referenceToTest.maxMm, inf);
  EXPECT_EQ(missed.surface->testToReference.surfaceVoxels, 0u);

  const LabelMetrics& extra = rows[1];  // test only
  EXPECT_EQ(extra.overlap.dice, 0.0);
  EXPECT_TRUE(std::isnan(extra.overlap.sensitivity));
  EXPECT_EQ(extra.overlap.precision, 0.0);
  EXPECT_TRUE(std::isnan(extra.overlap.volumeDifferencePercent));
  EXPECT_EQ(extra.surface->hausdorffMm, inf);
  EXPECT_EQ(extra.surface->surfaceDice, 0.0);

  const LabelMetrics& neither = rows[2];
  EXPECT_EQ(neither.counts.reference + neither.counts.test, 0u);
  EXPECT_EQ(neither.overlap.dice, 1.0);
  EXPECT_EQ(neither.overlap.jaccard, 1.0);
  EXPECT_EQ(neither.overlap.sensitivity, 1.0);
  EXPECT_EQ(neither.overlap.precision, 1.0);
  EXPECT_EQ(neither.overlap.volumeDifferencePercent, 0.0);
  EXPECT_EQ(neither.surface->hausdorffMm, 0.0);
  EXPECT_EQ(neither.surface->hausdorffPercentileMm, 0.0);
  EXPECT_EQ(neither.surface->averageSymmetricMm, 0.0);
  EXPECT_EQ(neither.surface->surfaceDice, 1.0);
}

TEST(MetricsAnalytic, DefaultLabelsAreThoseInEitherMapAndCountsMatchEveryLabel) {
  const ImageGeometry g = metricsGrid({37, 29, 23}, {1.0, 1.0, 1.0});
  LabelMap ref("ref", g), test("test", g);
  std::mt19937 rng(11);
  const std::uint16_t values[] = {0, 1, 2, 700, 65535};
  std::uniform_int_distribution<int> pick(0, 4);
  for (std::size_t n = 0; n < g.voxelCount(); ++n) {
    ref.mutableData()[n] = values[pick(rng)];
    test.mutableData()[n] = pick(rng) < 2 ? ref.data()[n] : values[pick(rng)];
  }
  ComparisonOptions options;
  options.surfaceMetrics = false;
  const auto rows = compare(ref, test, options);
  ASSERT_EQ(rows.size(), 4u);
  for (const LabelMetrics& m : rows) {
    std::uint64_t r = 0, t = 0, both = 0;
    VoxelBox rb;
    for (std::size_t k = 0; k < g.size[2]; ++k) {
      for (std::size_t j = 0; j < g.size[1]; ++j) {
        for (std::size_t i = 0; i < g.size[0]; ++i) {
          const bool a = ref.at(i, j, k) == m.label, b = test.at(i, j, k) == m.label;
          r += a;
          t += b;
          both += a && b;
          if (a) {
            rb.include(i, j, k);
          }
        }
      }
    }
    EXPECT_EQ(m.counts.reference, r) << m.label;
    EXPECT_EQ(m.counts.test, t) << m.label;
    EXPECT_EQ(m.counts.both, both) << m.label;
    EXPECT_EQ(m.counts.referenceBox, rb) << m.label;
    EXPECT_FALSE(m.surface);
  }
  EXPECT_EQ(rows.back().label, 65535);
}

TEST(MetricsAnalytic, SurfaceDistancesEqualBruteForceOnRandomBlobs) {
  for (const std::uint32_t seed : {1u, 2u, 3u, 4u}) {
    const Vec3 sp = seed % 2 ? Vec3{0.7, 1.1, 2.5} : Vec3{1.0, 1.0, 1.0};
    const ImageGeometry g = metricsGrid({34, 30, 18}, sp);
    LabelMap ref("ref", g), test("test", g);
    std::mt19937 rng(seed);
    delineate::test::paintBlobs(ref, 4, rng, 4, 3.0, 9.0);
    delineate::test::paintBlobs(test, 4, rng, 4, 3.0, 9.0);
    ComparisonOptions options;
    options.toleranceMm = 2.0;
    const auto results = compare(ref, test, options);
    const auto& s = *only(results, 4).surface;

    const auto a = delineate::test::surfacePoints(ref, 4);
    const auto b = delineate::test::surfacePoints(test, 4);
    const auto ab = delineate::test::bruteForceDistances(a, b);
    const auto ba = delineate::test::bruteForceDistances(b, a);
    ASSERT_EQ(s.referenceToTest.surfaceVoxels, a.size());
    ASSERT_EQ(s.testToReference.surfaceVoxels, b.size());
    const double maxAb = *std::max_element(ab.begin(), ab.end());
    const double maxBa = *std::max_element(ba.begin(), ba.end());
    double sum = 0;
    std::size_t within = 0;
    for (const auto* d : {&ab, &ba}) {
      for (const double x : *d) {
        sum += x;
        within += x <= 2.0 + 1e-9;
      }
    }
    const double tol = 1e-5;
    EXPECT_NEAR(s.referenceToTest.maxMm, maxAb, tol) << seed;
    EXPECT_NEAR(s.testToReference.maxMm, maxBa, tol) << seed;
    EXPECT_NEAR(s.hausdorffMm, std::max(maxAb, maxBa), tol) << seed;
    const double p95 = std::max(delineate::test::linearPercentile(ab, 95),
                                delineate::test::linearPercentile(ba, 95));
    EXPECT_NEAR(s.hausdorffPercentileMm, p95, tol) << seed;
    EXPECT_NEAR(s.averageSymmetricMm, sum / double(ab.size() + ba.size()), tol) << seed;
    EXPECT_DOUBLE_EQ(s.surfaceDice, double(within) / double(ab.size() + ba.size())) << seed;
  }
}

TEST(MetricsAnalytic, MaskFillingTheGridHasItsBorderAsSurface) {
  const ImageGeometry g = metricsGrid({12, 10, 8}, {1.0, 1.0, 1.0});
  LabelMap ref("ref", g), test("test", g);
  paintBox(ref, {0, 0, 0}, {12, 10, 8}, 1);
  paintBox(test, {0, 0, 0}, {12, 10, 7}, 1);  // one slice short
  const auto results = compare(ref, test);
  const auto& s = *only(results, 1).surface;
  // Every voxel on the grid's border is on the surface; the interior is not.
  EXPECT_EQ(s.referenceToTest.surfaceVoxels, 12u * 10 * 8 - 10 * 8 * 6);
  EXPECT_EQ(s.testToReference.surfaceVoxels, 12u * 10 * 7 - 10 * 8 * 5);
  // The reference's last slice is 1 mm from the test's last one, which is inside the reference.
  EXPECT_DOUBLE_EQ(s.referenceToTest.maxMm, 1.0);
  EXPECT_DOUBLE_EQ(s.testToReference.maxMm, 1.0);
  EXPECT_EQ(s.referenceToTest.withinTolerance, s.referenceToTest.surfaceVoxels);
}

TEST(MetricsAnalytic, DifferentGridsAndBackgroundLabelAreRefused) {
  LabelMap ref("ref", metricsGrid({10, 10, 10}, {1, 1, 1}));
  LabelMap test("test", metricsGrid({10, 10, 11}, {1, 1, 1}));
  try {
    compare(ref, test);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("size 10x10x10 vs 10x10x11"), std::string::npos)
        << e.what();
  }
  LabelMap same("same", metricsGrid({10, 10, 10}, {1, 1, 1}));
  ComparisonOptions options;
  options.labels = {0};
  EXPECT_THROW(compare(ref, same, options), Error);
}

TEST(MetricsAnalytic, CancelStopsTheComparison) {
  const ImageGeometry g = metricsGrid({40, 40, 40}, {1, 1, 1});
  LabelMap ref("ref", g), test("test", g);
  paintBall(ref, {20, 20, 20}, 10, 1);
  CancelToken token;
  token.cancel();
  NullProgress progress(token);
  EXPECT_THROW(compareLabelMaps(ref, test, {}, progress), CancelledError);
}

TEST(MetricsAnalytic, ProgressEndsAtOne) {
  struct Recorder : ProgressSink {
    double last = -1;
    void report(double fraction, std::string_view) override { last = fraction; }
    bool cancelled() const override { return false; }
  } progress;
  const ImageGeometry g = metricsGrid({30, 30, 30}, {1, 1, 1});
  LabelMap ref("ref", g), test("test", g);
  paintBall(ref, {15, 15, 15}, 8, 1);
  paintBall(test, {16, 15, 15}, 8, 1);
  compareLabelMaps(ref, test, {}, progress);
  EXPECT_DOUBLE_EQ(progress.last, 1.0);
}

TEST(MetricsAnalytic, FarApartSurfacesTakeTheFullTransformAndStayExact) {
  // A comb of one-voxel layers (every voxel is surface, many per column) far from a small ball:
  // the outward searches exceed their budget and the label takes the full transform, whose last
  // axis also switches to the column envelope.
  const ImageGeometry g = metricsGrid({40, 36, 44}, {0.9, 1.1, 0.8});
  LabelMap ref("ref", g), test("test", g);
  for (std::size_t k = 2; k < 24; k += 2) {
    paintBox(ref, {2, 2, k}, {22, 20, k + 1}, 1);
  }
  paintBall(test, {34, 31, 39}, 2.5, 1);
  const VoxelBox box = countOverlapsFor(ref, test).find(1).unionBox();
  SurfacePair pair(ref, test, 1, box);
  NullProgress progress;
  pair.markSurfaces(progress);
  std::vector<double> ab, ba;
  pair.distances(ab, ba, progress);
  EXPECT_TRUE(pair.usedFullTransform());
  auto expectAb = delineate::test::bruteForceDistances(delineate::test::surfacePoints(ref, 1),
                                                       delineate::test::surfacePoints(test, 1));
  auto expectBa = delineate::test::bruteForceDistances(delineate::test::surfacePoints(test, 1),
                                                       delineate::test::surfacePoints(ref, 1));
  ASSERT_EQ(ab.size(), expectAb.size());
  ASSERT_EQ(ba.size(), expectBa.size());
  for (auto* v : {&ab, &ba, &expectAb, &expectBa}) {
    std::sort(v->begin(), v->end());
  }
  for (std::size_t n = 0; n < ab.size(); ++n) {
    ASSERT_NEAR(ab[n], expectAb[n], 1e-5) << n;
  }
  for (std::size_t n = 0; n < ba.size(); ++n) {
    ASSERT_NEAR(ba[n], expectBa[n], 1e-5) << n;
  }
}

TEST(MetricsAnalytic, CloseSurfacesAreSearchedWithoutTheFullTransform) {
  const ImageGeometry g = metricsGrid({40, 40, 30}, {1, 1, 1.5});
  LabelMap ref("ref", g), test("test", g);
  paintBall(ref, {20, 20, 15}, 12, 1);
  paintBall(test, {21, 20, 15}, 11, 1);
  SurfacePair pair(ref, test, 1, countOverlapsFor(ref, test).find(1).unionBox());
  NullProgress progress;
  pair.markSurfaces(progress);
  std::vector<double> ab, ba;
  pair.distances(ab, ba, progress);
  EXPECT_FALSE(pair.usedFullTransform());
  EXPECT_EQ(ab.size(), pair.referenceSurfaceVoxels());
}
