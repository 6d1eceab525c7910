#include "annotation/engine/HistogramModes.h"

#include <algorithm>
#include <cmath>

namespace delineate::annotation {

namespace {

constexpr std::size_t kMaxBins = 1 << 16;
// A mode's hill ends where the smoothed histogram falls below this share of the mode's height.
constexpr double kHillFloor = 0.1;

}  // namespace

std::vector<HistogramMode> histogramModes(const std::vector<float>& values, double sd,
                                          double minProminence, double minCount) {
  if (values.empty() || !(sd > 0)) {
    return {};
  }
  const auto [minIt, maxIt] = std::minmax_element(values.begin(), values.end());
  const double lo = *minIt - 3 * sd, hi = *maxIt + 3 * sd;
  const double width = std::max(sd / 2, (hi - lo) / double(kMaxBins));
  const std::size_t bins = std::size_t((hi - lo) / width) + 1;
  std::vector<double> counts(bins, 0);
  for (float v : values) {
    counts[std::min(bins - 1, std::size_t((v - lo) / width))] += 1;
  }
  // Gaussian smoothing over +-3 SD.
  const double sdBins = sd / width;
  const int reach = int(std::ceil(3 * sdBins));
  std::vector<double> kernel(std::size_t(2 * reach + 1));
  for (int d = -reach; d <= reach; ++d) {
    kernel[std::size_t(d + reach)] = std::exp(-0.5 * d * d / (sdBins * sdBins));
  }
  std::vector<double> smooth(bins, 0);
  for (std::size_t b = 0; b < bins; ++b) {
    if (counts[b] == 0) {
      continue;
    }
    for (int d = -reach; d <= reach; ++d) {
      const std::ptrdiff_t t = std::ptrdiff_t(b) + d;
      if (t >= 0 && t < std::ptrdiff_t(bins)) {
        smooth[std::size_t(t)] += counts[b] * kernel[std::size_t(d + reach)];
      }
    }
  }

  std::vector<HistogramMode> modes;
  for (std::size_t b = 1; b + 1 < bins; ++b) {
    const double h = smooth[b];
    // A maximum (plateaus count once, at their left end).
    if (!(h > smooth[b - 1] && h >= smooth[b + 1])) {
      continue;
    }
    // Valleys toward the nearest higher bin on each side (the histogram's end if none).
    double valley[2] = {h, h};
    for (int side = 0; side < 2; ++side) {
      for (std::ptrdiff_t t = std::ptrdiff_t(b) + (side ? 1 : -1);
           t >= 0 && t < std::ptrdiff_t(bins); t += side ? 1 : -1) {
        if (smooth[std::size_t(t)] > h) {
          break;
        }
        valley[side] = std::min(valley[side], smooth[std::size_t(t)]);
      }
    }
    const double prominence = h - std::max(valley[0], valley[1]);
    if (prominence < minProminence * h) {
      continue;
    }
    std::size_t first = b, last = b;
    while (first > 0 && smooth[first - 1] >= kHillFloor * h && smooth[first - 1] <= smooth[first]) {
      --first;
    }
    while (last + 1 < bins && smooth[last + 1] >= kHillFloor * h &&
           smooth[last + 1] <= smooth[last]) {
      ++last;
    }
    double mass = 0;
    for (std::size_t t = first; t <= last; ++t) {
      mass += counts[t];
    }
    if (mass >= minCount) {
      auto at = [&](std::size_t bin) { return lo + (double(bin) + 0.5) * width; };
      modes.push_back({at(b), at(first), at(last)});
    }
  }
  return modes;
}

}  // namespace delineate::annotation
