#include "annotation/engine/ExtremePointSegmenter.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/Error.h"

namespace delineate::annotation {

namespace {

// Mean of the 3x3x3 neighbourhood of v, clipped to the image.
double localMean(const core::Volume& image, const core::Size3& v) {
  const core::Size3& n = image.geometry().size;
  double sum = 0;
  int count = 0;
  for (std::size_t k = v[2] > 0 ? v[2] - 1 : 0; k <= v[2] + 1 && k < n[2]; ++k) {
    for (std::size_t j = v[1] > 0 ? v[1] - 1 : 0; j <= v[1] + 1 && j < n[1]; ++j) {
      for (std::size_t i = v[0] > 0 ? v[0] - 1 : 0; i <= v[0] + 1 && i < n[0]; ++i) {
        sum += image.valueAt(i, j, k);
        ++count;
      }
    }
  }
  return sum / count;
}

struct PathSample {
  core::Size3 voxel;
  double value = 0;
  double fromMiddle = 0;  // |t - 0.5|
};

double median(std::vector<double> v) {
  auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

core::VoxelBox ExtremePointSegmenter::boxOf(const ExtremePoints& points) {
  core::VoxelBox box;
  for (const core::Size3& p : points) {
    box.include(p[0], p[1], p[2]);
  }
  return box;
}

Guidance ExtremePointSegmenter::guidanceFor(const core::Volume& image,
                                            const ExtremePoints& points) {
  // The middle halves of the paths between the least and the greatest point along each axis.
  std::array<std::vector<PathSample>, 3> paths;
  std::vector<double> values;
  for (int a = 0; a < 3; ++a) {
    const auto [lo, hi] = std::minmax_element(
        points.begin(), points.end(),
        [a](const core::Size3& p, const core::Size3& q) { return p[a] < q[a]; });
    double length = 0;
    for (int b = 0; b < 3; ++b) {
      const double d = double((*hi)[b]) - double((*lo)[b]);
      length += d * d;
    }
    const int steps = std::max(2, int(std::ceil(std::sqrt(length))));
    for (int s = steps / 4; s <= steps - steps / 4; ++s) {
      const double t = double(s) / steps;
      core::Size3 v{};
      for (int b = 0; b < 3; ++b) {
        v[b] = std::size_t(std::lround(double((*lo)[b]) + t * (double((*hi)[b]) - double((*lo)[b]))));
      }
      const double value = localMean(image, v);
      paths[std::size_t(a)].push_back({v, value, std::abs(t - 0.5)});
      values.push_back(value);
    }
  }
  const double m = median(values);
  std::vector<double> deviations;
  for (double v : values) {
    deviations.push_back(std::abs(v - m));
  }
  const double tolerance = 2.5 * std::max(1.4826 * median(deviations), 1e-6);

  Guidance g;
  for (auto& path : paths) {
    std::sort(path.begin(), path.end(), [](const PathSample& p, const PathSample& q) {
      return p.fromMiddle < q.fromMiddle;
    });
    for (const PathSample& p : path) {
      if (std::abs(p.value - m) <= tolerance) {
        const bool known = std::any_of(g.clicks.begin(), g.clicks.end(),
                                       [&](const GuidanceClick& c) { return c.voxel == p.voxel; });
        if (!known) {
          g.add(p.voxel, true);
        }
        break;
      }
    }
  }
  if (g.clicks.empty()) {
    g.add(paths[0].front().voxel, true);
  }
  for (const core::Size3& p : points) {
    g.add(p, true);
  }
  g.extremePoints = points;
  return g;
}

BoxMask ExtremePointSegmenter::segment(const core::Volume& image, const ExtremePoints& points,
                                       core::ProgressSink& progress) const {
  const core::Size3& n = image.geometry().size;
  for (const core::Size3& p : points) {
    if (p[0] >= n[0] || p[1] >= n[1] || p[2] >= n[2]) {
      throw core::Error(core::ErrorKind::InvalidInput, {}, "an extreme point lies outside the image");
    }
  }
  SegmenterOptions options = options_;
  options.clipBox = boxOf(points);
  if (options_.clipBox) {
    options.clipBox = intersection(*options.clipBox, *options_.clipBox);
  }
  return PointGuidedSegmenter(options).segment(image, guidanceFor(image, points), progress);
}

}  // namespace delineate::annotation
