#include "core/metrics/SurfaceDistances.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/Error.h"
#include "core/metrics/SameGrid.h"
#include "core/metrics/SurfacePair.h"

namespace delineate::core {

namespace {

// A distance within this relative slack of the tolerance counts as within it, so that grid
// distances equal to the tolerance are not lost to rounding (squared distances are floats).
constexpr double kToleranceSlack = 1e-6;

// Percentile p of d by linear interpolation between order statistics (NumPy's default): the
// value at rank p/100 (n - 1). Reorders d.
double percentile(std::vector<double>& d, double p) {
  if (d.empty()) {
    return 0;
  }
  const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * double(d.size() - 1);
  const std::size_t lo = std::size_t(std::floor(rank));
  std::nth_element(d.begin(), d.begin() + std::ptrdiff_t(lo), d.end());
  const double below = d[lo];
  if (lo + 1 >= d.size() || rank == double(lo)) {
    return below;
  }
  const double above = *std::min_element(d.begin() + std::ptrdiff_t(lo) + 1, d.end());
  return below + (rank - double(lo)) * (above - below);
}

DirectedDistances summarize(std::vector<double>& d, const SurfaceDistanceOptions& options,
                            double& sum) {
  DirectedDistances out;
  out.surfaceVoxels = d.size();
  sum = 0;
  const double within = options.toleranceMm * (1.0 + kToleranceSlack);
  for (const double x : d) {
    sum += x;
    out.maxMm = std::max(out.maxMm, x);
    out.withinTolerance += x <= within ? 1 : 0;
  }
  out.meanMm = d.empty() ? 0.0 : sum / double(d.size());
  out.percentileMm = percentile(d, options.percentile);
  return out;
}

// From a non-empty surface to an empty one: every distance is infinite.
DirectedDistances toNothing(std::size_t surfaceVoxels) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return {surfaceVoxels, inf, inf, inf, 0};
}

SurfaceDistanceResult emptyResult(std::size_t referenceSurface, std::size_t testSurface) {
  SurfaceDistanceResult r;
  if (referenceSurface == 0 && testSurface == 0) {
    return r;  // both empty: distances 0, surface Dice 1
  }
  constexpr double inf = std::numeric_limits<double>::infinity();
  r.referenceToTest = referenceSurface ? toNothing(referenceSurface) : DirectedDistances{};
  r.testToReference = testSurface ? toNothing(testSurface) : DirectedDistances{};
  r.hausdorffMm = r.hausdorffPercentileMm = r.averageSymmetricMm = inf;
  r.surfaceDice = 0;
  return r;
}

}  // namespace

SurfaceDistanceResult surfaceDistances(const LabelMap& reference, const LabelMap& test,
                                       std::uint16_t label, const VoxelBox& voxelBox,
                                       const SurfaceDistanceOptions& options,
                                       ProgressSink& progress) {
  requireSameGrid(reference, test);
  const ImageGeometry& g = reference.geometry();
  for (int a = 0; a < 3; ++a) {
    if (voxelBox.hi[a] > g.size[a]) {
      throw Error(ErrorKind::Internal, reference.name(), "surfaceDistances: box outside the grid");
    }
  }
  if (voxelBox.empty()) {
    return emptyResult(0, 0);
  }
  SurfacePair pair(reference, test, label, voxelBox);
  SubProgress marking(progress, 0.0, 0.5);
  pair.markSurfaces(marking);
  if (pair.referenceSurfaceVoxels() == 0 || pair.testSurfaceVoxels() == 0) {
    return emptyResult(pair.referenceSurfaceVoxels(), pair.testSurfaceVoxels());
  }
  std::vector<double> a, b;
  SubProgress measuring(progress, 0.5, 1.0);
  pair.distances(a, b, measuring);
  if (a.size() != pair.referenceSurfaceVoxels() || b.size() != pair.testSurfaceVoxels()) {
    throw Error(ErrorKind::Internal, reference.name(), "surfaceDistances: lost surface voxels");
  }
  SurfaceDistanceResult r;
  double sumA = 0, sumB = 0;
  r.referenceToTest = summarize(a, options, sumA);
  r.testToReference = summarize(b, options, sumB);
  const double n = double(a.size() + b.size());
  r.hausdorffMm = std::max(r.referenceToTest.maxMm, r.testToReference.maxMm);
  r.hausdorffPercentileMm =
      std::max(r.referenceToTest.percentileMm, r.testToReference.percentileMm);
  r.averageSymmetricMm = (sumA + sumB) / n;
  r.surfaceDice = double(r.referenceToTest.withinTolerance + r.testToReference.withinTolerance) / n;
  progress.report(1.0, "Surface distances");
  return r;
}

}  // namespace delineate::core
