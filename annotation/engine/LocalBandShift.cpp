#include "annotation/engine/LocalBandShift.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace delineate::annotation {

namespace {

// A value's flat voxels are those within this share of the gap to the nearest other value
// (half way to the band edge between them).
constexpr double kSampleShare = 0.25;
// A value moves in a block only where the block and its neighbours hold this many of them.
constexpr double kMinSamples = 50;
// The samples: every second voxel along each axis (a block and its neighbours still offer
// thousands; the drift is smooth).
constexpr std::size_t kSampleStep = 2;

}  // namespace

LocalBandShift::LocalBandShift(const RoiImage& roi, const std::vector<IntensityBand>& bands)
    : n_(roi.grid.extent()), bands_(bands) {
  for (int a = 0; a < 3; ++a) {
    blocks_[a] = std::max<std::size_t>(1, (n_[a] + kBlock - 1) / kBlock);
  }
  const std::size_t blockCount = blocks_[0] * blocks_[1] * blocks_[2];
  // The distinct values the bands are built on, and how far from each its samples may lie.
  std::vector<double> values;
  for (const IntensityBand& b : bands_) {
    for (double v : {b.lowerNeighbour, b.centre, b.upperNeighbour}) {
      if (std::isfinite(v) && std::find(values.begin(), values.end(), v) == values.end()) {
        values.push_back(v);
      }
    }
  }
  std::sort(values.begin(), values.end());
  std::vector<double> reach(values.size(), 0);
  for (std::size_t k = 0; k < values.size(); ++k) {
    double gap = std::numeric_limits<double>::infinity();
    if (k > 0) {
      gap = std::min(gap, values[k] - values[k - 1]);
    }
    if (k + 1 < values.size()) {
      gap = std::min(gap, values[k + 1] - values[k]);
    }
    reach[k] = std::isfinite(gap) ? kSampleShare * gap : 4 * roi.smoothNoiseSd;
  }
  // Per block and value: the sum of (sample - value) and the count of samples.
  const std::size_t nv = values.size();
  std::vector<double> sum(blockCount * nv, 0), count(blockCount * nv, 0);
  const std::size_t nx = n_[0];
  for (std::size_t z = 0; z < n_[2]; z += kSampleStep) {
    for (std::size_t y = 0; y < n_[1]; y += kSampleStep) {
      const std::size_t row = nx * (y + n_[1] * z);
      const std::size_t blockRow = blocks_[0] * (y / kBlock + blocks_[1] * (z / kBlock));
      for (std::size_t x = 0; x < nx; x += kSampleStep) {
        const std::size_t at = row + x;
        if (!roi.flat(at, x, y, z)) {
          continue;
        }
        const double v = roi.smooth[at];
        const auto it = std::lower_bound(values.begin(), values.end(), v);
        for (auto c = it == values.begin() ? it : it - 1; c != values.end() && c <= it; ++c) {
          const std::size_t k = std::size_t(c - values.begin());
          if (std::abs(v - values[k]) < reach[k]) {
            const std::size_t slot = (blockRow + x / kBlock) * nv + k;
            sum[slot] += v - values[k];
            count[slot] += 1;
          }
        }
      }
    }
  }
  // Each block's moves over it and its 26 neighbours.
  lo_.resize(blockCount * bands_.size());
  hi_.resize(blockCount * bands_.size());
  std::vector<double> move(nv);
  for (std::size_t bz = 0; bz < blocks_[2]; ++bz) {
    for (std::size_t by = 0; by < blocks_[1]; ++by) {
      for (std::size_t bx = 0; bx < blocks_[0]; ++bx) {
        const std::size_t block = bx + blocks_[0] * (by + blocks_[1] * bz);
        for (std::size_t k = 0; k < nv; ++k) {
          double s = 0, c = 0;
          for (std::size_t z = bz ? bz - 1 : 0; z <= std::min(bz + 1, blocks_[2] - 1); ++z) {
            for (std::size_t y = by ? by - 1 : 0; y <= std::min(by + 1, blocks_[1] - 1); ++y) {
              for (std::size_t x = bx ? bx - 1 : 0; x <= std::min(bx + 1, blocks_[0] - 1); ++x) {
                const std::size_t other = x + blocks_[0] * (y + blocks_[1] * z);
                s += sum[other * nv + k];
                c += count[other * nv + k];
              }
            }
          }
          move[k] = c >= kMinSamples ? s / c : 0;
        }
        auto moveOf = [&](double v) {
          return move[std::size_t(std::lower_bound(values.begin(), values.end(), v) -
                                  values.begin())];
        };
        for (std::size_t b = 0; b < bands_.size(); ++b) {
          const IntensityBand& band = bands_[b];
          const double own = moveOf(band.centre);
          const double below =
              std::isfinite(band.lowerNeighbour) ? 0.5 * (own + moveOf(band.lowerNeighbour)) : own;
          const double above =
              std::isfinite(band.upperNeighbour) ? 0.5 * (own + moveOf(band.upperNeighbour)) : own;
          lo_[block * bands_.size() + b] = float(band.lo + below);
          hi_[block * bands_.size() + b] = float(band.hi + above);
        }
      }
    }
  }
}

std::size_t LocalBandShift::blockOf(std::size_t at) const {
  const std::size_t x = at % n_[0], y = (at / n_[0]) % n_[1], z = at / (n_[0] * n_[1]);
  return x / kBlock + blocks_[0] * (y / kBlock + blocks_[1] * (z / kBlock));
}

void LocalBandShift::groups(const std::vector<float>& values,
                            std::vector<std::uint8_t>& out) const {
  const std::size_t nb = bands_.size();
  for (std::size_t z = 0; z < n_[2]; ++z) {
    for (std::size_t y = 0; y < n_[1]; ++y) {
      const std::size_t row = n_[0] * (y + n_[1] * z);
      const std::size_t blockRow = blocks_[0] * (y / kBlock + blocks_[1] * (z / kBlock));
      for (std::size_t x = 0; x < n_[0]; ++x) {
        const float v = values[row + x];
        const std::size_t base = (blockRow + x / kBlock) * nb;
        std::uint8_t group = 0;
        for (std::size_t b = 0; b < nb && !group; ++b) {
          if (v >= lo_[base + b] && v <= hi_[base + b]) {
            group = bands_[b].group;
          }
        }
        out[row + x] = group;
      }
    }
  }
}

std::uint8_t LocalBandShift::groupOf(float value, std::size_t at) const {
  const std::size_t base = blockOf(at) * bands_.size();
  for (std::size_t b = 0; b < bands_.size(); ++b) {
    if (value >= lo_[base + b] && value <= hi_[base + b]) {
      return bands_[b].group;
    }
  }
  return 0;
}

}  // namespace delineate::annotation
