#include "annotation/engine/EdgePreservingSmooth.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>

#include "core/jobs/ParallelFor.h"

namespace delineate::annotation {

namespace {

constexpr int kLutSize = 512;
constexpr double kLutRange = 4.0;  // range weights beyond 4 SD are taken as 0

struct Kernel {
  std::array<float, 27> spatial{};
  std::array<float, kLutSize> range{};
  float lutScale = 0;  // LUT slot per unit of |difference|
};

Kernel makeKernel(const core::Vec3& spacing, const BilateralParams& p) {
  Kernel k;
  int at = 0;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const double d2 = dx * dx * spacing[0] * spacing[0] + dy * dy * spacing[1] * spacing[1] +
                          dz * dz * spacing[2] * spacing[2];
        k.spatial[at++] = float(std::exp(-d2 / (2 * p.spatialSdMm * p.spatialSdMm)));
      }
    }
  }
  const double sd = std::max(p.rangeSd, 1e-6);
  k.lutScale = float((kLutSize - 1) / (kLutRange * sd));
  for (int i = 0; i < kLutSize; ++i) {
    const double d = double(i) / k.lutScale;
    k.range[std::size_t(i)] = float(std::exp(-d * d / (2 * sd * sd)));
  }
  k.range[kLutSize - 1] = 0;
  return k;
}

// One pass over z slices [z0, z1) of `in` into `out`; the neighbourhood is clamped at the block
// edge (edge voxels see themselves in place of missing neighbours).
void filterSlices(const std::vector<float>& in, std::vector<float>& out, const core::Size3& n,
                  const Kernel& k, std::size_t z0, std::size_t z1) {
  const std::size_t nx = n[0], nxy = n[0] * n[1];
  for (std::size_t z = z0; z < z1; ++z) {
    const std::size_t zs[3] = {z > 0 ? z - 1 : z, z, z + 1 < n[2] ? z + 1 : z};
    for (std::size_t y = 0; y < n[1]; ++y) {
      const std::size_t ys[3] = {y > 0 ? y - 1 : y, y, y + 1 < n[1] ? y + 1 : y};
      for (std::size_t x = 0; x < nx; ++x) {
        const std::size_t xs[3] = {x > 0 ? x - 1 : x, x, x + 1 < nx ? x + 1 : x};
        const float c = in[x + y * nx + z * nxy];
        float sum = 0, weight = 0;
        int at = 0;
        for (int dz = 0; dz < 3; ++dz) {
          for (int dy = 0; dy < 3; ++dy) {
            const float* row = in.data() + ys[dy] * nx + zs[dz] * nxy;
            for (int dx = 0; dx < 3; ++dx, ++at) {
              const float v = row[xs[dx]];
              const int slot = std::min(kLutSize - 1, int(std::abs(v - c) * k.lutScale));
              const float w = k.spatial[std::size_t(at)] * k.range[std::size_t(slot)];
              sum += w * v;
              weight += w;
            }
          }
        }
        out[x + y * nx + z * nxy] = sum / weight;  // the centre always weighs 1
      }
    }
  }
}

}  // namespace

void bilateralSmooth(std::vector<float>& values, const core::Size3& n, const core::Vec3& spacing,
                     const BilateralParams& params, core::ProgressSink& progress) {
  if (values.empty()) {
    return;
  }
  const Kernel k = makeKernel(spacing, params);
  std::vector<float> out(values.size());
  const std::size_t slab = std::max<std::size_t>(1, std::min<std::size_t>(8, n[2] / 8));
  const std::size_t slabs = (n[2] + slab - 1) / slab;
  for (int pass = 0; pass < params.passes; ++pass) {
    const unsigned threads = params.threads ? params.threads : core::hardwareThreads();
    core::parallelFor(slabs, threads, progress, [&](std::size_t s) {
      filterSlices(values, out, n, k, s * slab, std::min(n[2], (s + 1) * slab));
    });
    values.swap(out);
  }
}

double bilateralNoiseFactor(const core::Vec3& spacing, const BilateralParams& params,
                            double noiseSd) {
  // Memoized: segmenters ask for the same few settings click after click.
  static std::mutex mutex;
  static std::map<std::array<double, 7>, double> known;
  const std::array<double, 7> key{spacing[0],           spacing[1],         spacing[2],
                                  params.rangeSd,       params.spatialSdMm, noiseSd,
                                  double(params.passes)};
  {
    std::lock_guard lock(mutex);
    if (auto it = known.find(key); it != known.end()) {
      return it->second;
    }
  }
  // A 20^3 block of Gaussian white noise from a fixed xorshift generator (Box-Muller).
  const core::Size3 n{20, 20, 20};
  std::vector<float> block(n[0] * n[1] * n[2]);
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto uniform = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (double(state >> 11) + 0.5) / 9007199254740992.0;
  };
  for (std::size_t i = 0; i < block.size(); ++i) {
    block[i] = float(noiseSd * std::sqrt(-2 * std::log(uniform())) *
                     std::cos(6.283185307179586 * uniform()));
  }
  core::NullProgress none;
  BilateralParams single = params;
  single.threads = 1;
  bilateralSmooth(block, n, spacing, single, none);
  // SD over the interior (the clamped border is smoothed less).
  double sum = 0, sum2 = 0, count = 0;
  for (std::size_t z = 2; z + 2 < n[2]; ++z) {
    for (std::size_t y = 2; y + 2 < n[1]; ++y) {
      for (std::size_t x = 2; x + 2 < n[0]; ++x) {
        const double v = block[x + n[0] * (y + n[1] * z)];
        sum += v;
        sum2 += v * v;
        ++count;
      }
    }
  }
  const double mean = sum / count;
  const double factor =
      std::sqrt(std::max(0.0, sum2 / count - mean * mean)) / std::max(noiseSd, 1e-12);
  std::lock_guard lock(mutex);
  if (known.size() > 1024) {
    known.clear();
  }
  known[key] = factor;
  return factor;
}

}  // namespace delineate::annotation
