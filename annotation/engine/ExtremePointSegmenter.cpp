#include "annotation/engine/ExtremePointSegmenter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "annotation/engine/NoiseEstimate.h"
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

// Two tissues along the paths must differ by this many noise SDs.
constexpr double kTwoTissueNoiseSd = 6;
// Samples in a row that make a tissue's showing on a path.
constexpr int kMinRun = 4;

struct PathSample {
  core::Size3 voxel;
  double value = 0;
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

ExtremePoints ExtremePointSegmenter::extremePointsOf(const BoxMask& mask) {
  ExtremePoints out{};
  const core::VoxelBox box = mask.contentBox();
  if (box.empty()) {
    return out;
  }
  double mid[3];
  for (int a = 0; a < 3; ++a) {
    mid[a] = 0.5 * double(box.lo[a] + box.hi[a] - 1);
  }
  for (int a = 0; a < 3; ++a) {
    for (int side = 0; side < 2; ++side) {
      // The slice of the box at the least (greatest) coordinate along a.
      core::VoxelBox slice = box;
      slice.lo[std::size_t(a)] = side ? box.hi[std::size_t(a)] - 1 : box.lo[std::size_t(a)];
      slice.hi[std::size_t(a)] = slice.lo[std::size_t(a)] + 1;
      double best = std::numeric_limits<double>::infinity();
      for (std::size_t k = slice.lo[2]; k < slice.hi[2]; ++k) {
        for (std::size_t j = slice.lo[1]; j < slice.hi[1]; ++j) {
          for (std::size_t i = slice.lo[0]; i < slice.hi[0]; ++i) {
            if (!mask.at(i, j, k)) {
              continue;
            }
            const double v[3] = {double(i), double(j), double(k)};
            double d = 0;
            for (int b = 0; b < 3; ++b) {
              d += b == a ? 0 : (v[b] - mid[b]) * (v[b] - mid[b]);
            }
            if (d < best) {
              best = d;
              out[std::size_t(2 * a + side)] = {i, j, k};
            }
          }
        }
      }
    }
  }
  return out;
}

Guidance ExtremePointSegmenter::guidanceFor(const core::Volume& image,
                                            const ExtremePoints& points) {
  // The inner 80 % of the paths between the least and the greatest point along each axis.
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
    for (int s = steps / 10; s <= steps - steps / 10; ++s) {
      const double t = double(s) / steps;
      core::Size3 v{};
      for (int b = 0; b < 3; ++b) {
        const double from = double((*lo)[b]), to = double((*hi)[b]);
        v[b] = std::size_t(std::lround(from + t * (to - from)));
      }
      const double value = localMean(image, v);
      paths[std::size_t(a)].push_back({v, value});
      values.push_back(value);
    }
  }
  // One tissue, or two when the samples split into two well separated groups of at least a
  // fifth each (a kidney's parenchyma around its sinus): 2-means from the extremes.
  std::vector<double> centres{*std::min_element(values.begin(), values.end()),
                              *std::max_element(values.begin(), values.end())};
  std::vector<std::size_t> sizes(2, 0);
  for (int iteration = 0; iteration < 20; ++iteration) {
    double sum[2] = {0, 0};
    sizes = {0, 0};
    for (double v : values) {
      const int c = std::abs(v - centres[0]) <= std::abs(v - centres[1]) ? 0 : 1;
      sum[c] += v;
      ++sizes[std::size_t(c)];
    }
    for (int c = 0; c < 2; ++c) {
      if (sizes[std::size_t(c)]) {
        centres[std::size_t(c)] = sum[c] / double(sizes[std::size_t(c)]);
      }
    }
  }
  std::vector<core::Size3> middle;
  for (const auto& path : paths) {
    middle.push_back(path.empty() ? points[0] : path[path.size() / 2].voxel);
  }
  const double noise = estimateNoiseSdNear(image, middle, 10);
  // ... and each shows as a run of samples on two paths at least (not only where one path
  // crosses the gap between two parts of a structure, like the lateral ventricles).
  auto pathsShowing = [&](int cluster) {
    int count = 0;
    for (const auto& path : paths) {
      int run = 0, longest = 0;
      for (const PathSample& p : path) {
        const bool first = std::abs(p.value - centres[0]) <= std::abs(p.value - centres[1]);
        run = first == (cluster == 0) ? run + 1 : 0;
        longest = std::max(longest, run);
      }
      count += longest >= kMinRun;
    }
    return count;
  };
  const bool two = std::abs(centres[1] - centres[0]) > kTwoTissueNoiseSd * noise &&
                   5 * std::min(sizes[0], sizes[1]) >= values.size() && pathsShowing(0) >= 2 &&
                   pathsShowing(1) >= 2;
  if (!two) {
    centres = {median(values)};
  }

  Guidance g;
  for (double centre : centres) {
    std::vector<double> deviations;
    for (double v : values) {
      if (!two || std::abs(v - centre) <=
                      std::abs(v - (centre == centres[0] ? centres.back() : centres[0]))) {
        deviations.push_back(std::abs(v - centre));
      }
    }
    const double tolerance = 2.5 * std::max(1.4826 * median(deviations), 1e-6);
    // On each path, the middle of the longest run of samples of this tissue.
    for (const auto& path : paths) {
      std::size_t bestStart = 0, bestLength = 0;
      for (std::size_t i = 0; i < path.size();) {
        if (std::abs(path[i].value - centre) > tolerance) {
          ++i;
          continue;
        }
        std::size_t j = i;
        while (j < path.size() && std::abs(path[j].value - centre) <= tolerance) {
          ++j;
        }
        if (j - i > bestLength) {
          bestStart = i;
          bestLength = j - i;
        }
        i = j;
      }
      if (bestLength == 0) {
        continue;
      }
      const core::Size3 v = path[bestStart + bestLength / 2].voxel;
      const bool known = std::any_of(g.clicks.begin(), g.clicks.end(),
                                     [&](const GuidanceClick& c) { return c.voxel == v; });
      if (!known) {
        g.add(v, true);
      }
    }
  }
  if (g.clicks.empty()) {
    g.add(middle.front(), true);
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
      throw core::Error(core::ErrorKind::InvalidInput, {},
                        "an extreme point lies outside the image");
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
