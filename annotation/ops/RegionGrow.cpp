#include "annotation/ops/RegionGrow.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace delineate::annotation {

using core::Size3;
using core::VoxelBox;

namespace {

// [lo, hi] as a test on T, exact for every pixel type (integers compare against the integer
// bounds inside the range, floats in double).
template <class T>
struct InRange {
  T lo{}, hi{};
  double dlo = 0, dhi = 0;
  bool empty = false;
  InRange(double l, double h) : dlo(l), dhi(h) {
    if constexpr (std::is_integral_v<T>) {
      const double cl = std::ceil(l), fh = std::floor(h);
      constexpr double tmin = double(std::numeric_limits<T>::lowest());
      constexpr double tmax = double(std::numeric_limits<T>::max());
      empty = !(cl <= fh) || cl > tmax || fh < tmin;
      if (!empty) {
        lo = T(std::max(cl, tmin));
        hi = T(std::min(fh, tmax));
      }
    } else {
      empty = !(l <= h);
    }
  }
  bool operator()(T v) const {
    if constexpr (std::is_integral_v<T>) {
      return v >= lo && v <= hi;
    } else {
      return double(v) >= dlo && double(v) <= dhi;
    }
  }
};

struct Span {
  std::size_t y, z, x0, x1;  // x0..x1 inclusive
};

struct Seed {
  std::size_t x, y, z;
};

// Scanline fill of the in-range voxels connected to `seed` within [blo, bhi).
template <class T>
BoxMask scanlineFill(const T* data, const Size3& n, const Size3& seed, const Size3& blo,
                     const Size3& bhi, const InRange<T>& in, core::ProgressSink& progress) {
  const std::size_t nx = n[0], nxy = n[0] * n[1];
  // One bit per voxel of the bounds (a slice for a 2D fill). vrow(y, z) + x is voxel x's bit;
  // unsigned arithmetic wraps, so subtracting blo[0] first is fine.
  const std::size_t bx = bhi[0] - blo[0], bxy = bx * (bhi[1] - blo[1]);
  std::vector<bool> visited(bxy * (bhi[2] - blo[2]), false);
  auto vrow = [&](std::size_t y, std::size_t z) {
    return (y - blo[1]) * bx + (z - blo[2]) * bxy - blo[0];
  };
  std::vector<Span> spans;
  std::vector<Seed> stack{{seed[0], seed[1], seed[2]}};
  Size3 lo = seed, hi = seed;  // inclusive bounding box of the spans
  const double boundsVoxels =
      double(bhi[0] - blo[0]) * double(bhi[1] - blo[1]) * double(bhi[2] - blo[2]);
  std::size_t filled = 0, iterations = 0;

  while (!stack.empty()) {
    const Seed s = stack.back();
    stack.pop_back();
    const std::size_t vbase = vrow(s.y, s.z);
    if (visited[vbase + s.x]) {
      continue;
    }
    // Spans are maximal runs of in-range voxels, so no visited voxel can be met while extending.
    const T* row = data + s.y * nx + s.z * nxy;
    std::size_t x0 = s.x, x1 = s.x;
    while (x0 > blo[0] && in(row[x0 - 1])) {
      --x0;
    }
    while (x1 + 1 < bhi[0] && in(row[x1 + 1])) {
      ++x1;
    }
    for (std::size_t x = x0; x <= x1; ++x) {
      visited[vbase + x] = true;
    }
    spans.push_back({s.y, s.z, x0, x1});
    filled += x1 - x0 + 1;
    lo = {std::min(lo[0], x0), std::min(lo[1], s.y), std::min(lo[2], s.z)};
    hi = {std::max(hi[0], x1), std::max(hi[1], s.y), std::max(hi[2], s.z)};

    // One seed per run of fillable voxels in each neighbouring row.
    auto scan = [&](std::size_t y, std::size_t z) {
      const T* r = data + y * nx + z * nxy;
      const std::size_t vb = vrow(y, z);
      bool inRun = false;
      for (std::size_t x = x0; x <= x1; ++x) {
        const bool ok = in(r[x]) && !visited[vb + x];
        if (ok && !inRun) {
          stack.push_back({x, y, z});
        }
        inRun = ok;
      }
    };
    if (s.y > blo[1]) {
      scan(s.y - 1, s.z);
    }
    if (s.y + 1 < bhi[1]) {
      scan(s.y + 1, s.z);
    }
    if (s.z > blo[2]) {
      scan(s.y, s.z - 1);
    }
    if (s.z + 1 < bhi[2]) {
      scan(s.y, s.z + 1);
    }
    if ((++iterations & 0x3fff) == 0) {
      progress.throwIfCancelled();
      progress.report(0.9 * double(filled) / boundsVoxels, "Growing region");
    }
  }
  visited = {};

  BoxMask mask(VoxelBox{lo, {hi[0] + 1, hi[1] + 1, hi[2] + 1}});
  for (const Span& s : spans) {
    std::uint8_t* dst = mask.bits.data() + mask.index(s.x0, s.y, s.z);
    std::fill(dst, dst + (s.x1 - s.x0 + 1), std::uint8_t{1});
  }
  progress.report(1.0, "Growing region");
  return mask;
}

}  // namespace

BoxMask regionGrow(const core::Volume& image, Size3 seed, double lo, double hi,
                   std::optional<int> sliceAxis, core::ProgressSink& progress) {
  const Size3& n = image.geometry().size;
  if (seed[0] >= n[0] || seed[1] >= n[1] || seed[2] >= n[2]) {
    return {};
  }
  Size3 blo{0, 0, 0}, bhi = n;
  if (sliceAxis && *sliceAxis >= 0 && *sliceAxis < 3) {
    blo[*sliceAxis] = seed[*sliceAxis];
    bhi[*sliceAxis] = seed[*sliceAxis] + 1;
  }
  return core::dispatchScalar(image.scalarType(), [&](auto tag) -> BoxMask {
    using T = decltype(tag);
    const InRange<T> in(lo, hi);
    const T* data = image.data<T>();
    if (in.empty || !in(data[image.linearIndex(seed[0], seed[1], seed[2])])) {
      return {};
    }
    return scanlineFill<T>(data, n, seed, blo, bhi, in, progress);
  });
}

std::pair<double, double> neighbourhoodRange(const core::Volume& image, Size3 seed,
                                             std::size_t radius, double sdFactor) {
  const Size3& n = image.geometry().size;
  double sum = 0, sum2 = 0;
  std::size_t count = 0;
  for (std::size_t k = seed[2] > radius ? seed[2] - radius : 0; k <= seed[2] + radius && k < n[2];
       ++k) {
    for (std::size_t j = seed[1] > radius ? seed[1] - radius : 0; j <= seed[1] + radius && j < n[1];
         ++j) {
      for (std::size_t i = seed[0] > radius ? seed[0] - radius : 0;
           i <= seed[0] + radius && i < n[0]; ++i) {
        const double v = image.valueAt(i, j, k);
        sum += v;
        sum2 += v * v;
        ++count;
      }
    }
  }
  if (count == 0) {
    return {0, -1};
  }
  const double mean = sum / double(count);
  const double sd = std::sqrt(std::max(0.0, sum2 / double(count) - mean * mean));
  return {mean - sdFactor * sd, mean + sdFactor * sd};
}

}  // namespace delineate::annotation
