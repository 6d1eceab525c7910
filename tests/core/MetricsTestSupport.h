#pragma once
// Shapes painted into label maps, and a brute-force reference for surface distances (every
// surface voxel against every surface voxel of the other map), for the metrics tests.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/model/LabelMap.h"

namespace delineate::test {

inline core::ImageGeometry metricsGrid(const core::Size3& size, const core::Vec3& spacing) {
  core::ImageGeometry g;
  g.size = size;
  g.spacing = spacing;
  g.origin = {-12.5, 30.0, 7.25};
  return g;
}

// Voxels [lo, hi) per axis.
inline void paintBox(core::LabelMap& map, const core::Size3& lo, const core::Size3& hi,
                     std::uint16_t label) {
  for (std::size_t k = lo[2]; k < hi[2]; ++k) {
    for (std::size_t j = lo[1]; j < hi[1]; ++j) {
      for (std::size_t i = lo[0]; i < hi[0]; ++i) {
        map.mutableData()[map.index(i, j, k)] = label;
      }
    }
  }
}

// Voxels whose centre lies within radiusMm of `centre` (continuous index), in mm.
inline void paintBall(core::LabelMap& map, const core::Vec3& centre, double radiusMm,
                      std::uint16_t label) {
  const core::ImageGeometry& g = map.geometry();
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        const double dx = (double(i) - centre[0]) * g.spacing[0];
        const double dy = (double(j) - centre[1]) * g.spacing[1];
        const double dz = (double(k) - centre[2]) * g.spacing[2];
        if (dx * dx + dy * dy + dz * dz <= radiusMm * radiusMm) {
          map.mutableData()[map.index(i, j, k)] = label;
        }
      }
    }
  }
}

// A few random balls of `label`: irregular, sometimes touching the grid's edge.
inline void paintBlobs(core::LabelMap& map, std::uint16_t label, std::mt19937& rng, int balls,
                       double minRadiusMm, double maxRadiusMm) {
  const core::ImageGeometry& g = map.geometry();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int b = 0; b < balls; ++b) {
    const core::Vec3 c{u(rng) * double(g.size[0] - 1), u(rng) * double(g.size[1] - 1),
                       u(rng) * double(g.size[2] - 1)};
    paintBall(map, c, minRadiusMm + u(rng) * (maxRadiusMm - minRadiusMm), label);
  }
}

inline std::size_t countLabel(const core::LabelMap& map, std::uint16_t label) {
  return std::size_t(std::count(map.data(), map.data() + map.voxelCount(), label));
}

// Surface voxels (face-connected boundary; outside the grid counts as background), in mm.
inline std::vector<core::Vec3> surfacePoints(const core::LabelMap& map, std::uint16_t label) {
  const core::ImageGeometry& g = map.geometry();
  const auto is = [&](long i, long j, long k) {
    return i >= 0 && j >= 0 && k >= 0 && i < long(g.size[0]) && j < long(g.size[1]) &&
           k < long(g.size[2]) && map.at(std::size_t(i), std::size_t(j), std::size_t(k)) == label;
  };
  std::vector<core::Vec3> out;
  for (long k = 0; k < long(g.size[2]); ++k) {
    for (long j = 0; j < long(g.size[1]); ++j) {
      for (long i = 0; i < long(g.size[0]); ++i) {
        if (is(i, j, k) && (!is(i - 1, j, k) || !is(i + 1, j, k) || !is(i, j - 1, k) ||
                            !is(i, j + 1, k) || !is(i, j, k - 1) || !is(i, j, k + 1))) {
          out.push_back(
              {double(i) * g.spacing[0], double(j) * g.spacing[1], double(k) * g.spacing[2]});
        }
      }
    }
  }
  return out;
}

// Distance from each point of `from` to the nearest point of `to`.
inline std::vector<double> bruteForceDistances(const std::vector<core::Vec3>& from,
                                               const std::vector<core::Vec3>& to) {
  std::vector<double> d;
  d.reserve(from.size());
  for (const core::Vec3& a : from) {
    double best = INFINITY;
    for (const core::Vec3& b : to) {
      const double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
      best = std::min(best, x * x + y * y + z * z);
    }
    d.push_back(std::sqrt(best));
  }
  return d;
}

// NumPy's default percentile (linear interpolation at rank p/100 (n - 1)).
inline double linearPercentile(std::vector<double> d, double p) {
  std::sort(d.begin(), d.end());
  const double rank = p / 100.0 * double(d.size() - 1);
  const std::size_t lo = std::size_t(std::floor(rank));
  const std::size_t hi = std::min(lo + 1, d.size() - 1);
  return d[lo] + (rank - double(lo)) * (d[hi] - d[lo]);
}

}  // namespace delineate::test
