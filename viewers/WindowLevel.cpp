#include "viewers/WindowLevel.h"

#include <algorithm>
#include <cmath>

namespace delineate::viewers {

namespace {

std::vector<double> sampleValues(const core::Volume& volume, std::size_t maxSamples) {
  const std::size_t n = volume.voxels().count();
  std::vector<double> out;
  if (n == 0) {
    return out;
  }
  // An odd stride avoids sampling the same column of every row.
  std::size_t stride = std::max<std::size_t>(1, n / maxSamples);
  if (stride > 1 && stride % 2 == 0) {
    ++stride;
  }
  out.reserve(n / stride + 1);
  core::dispatchScalar(volume.scalarType(), [&](auto t) {
    using T = decltype(t);
    const T* p = volume.data<T>();
    for (std::size_t i = 0; i < n; i += stride) {
      const double v = static_cast<double>(p[i]);
      if (std::isfinite(v)) {
        out.push_back(v);
      }
    }
  });
  return out;
}

}  // namespace

bool looksLikeCt(const core::Volume& volume) {
  if (volume.info().modality == "CT") {
    return true;
  }
  if (!volume.info().modality.empty() && volume.info().modality != "OT") {
    return false;
  }
  const auto [lo, hi] = volume.valueRange();
  return lo >= -3100 && lo <= -900 && hi >= 0 && hi <= 32767;
}

std::pair<double, double> percentileRange(const core::Volume& volume, double low, double high) {
  if (low == 0.5 && high == 99.5) {
    return volume.displayRange();  // computed once, by the loading job
  }
  auto values = sampleValues(volume, 1 << 20);
  if (values.empty()) {
    return {0, 1};
  }
  auto at = [&](double pct) {
    const auto k = static_cast<std::size_t>(std::clamp(pct / 100.0, 0.0, 1.0) *
                                            static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
  };
  const double lo = at(low);
  const double hi = at(high);
  return {lo, hi};
}

std::vector<core::WindowPreset> windowPresets(const core::Volume& volume) {
  std::vector<core::WindowPreset> out = volume.info().windows;
  auto add = [&out](const std::string& name, double c, double w) {
    for (const auto& p : out) {
      if (p.name == name) {
        return;
      }
    }
    out.push_back({name, c, w});
  };
  if (looksLikeCt(volume)) {
    add("Brain", 40, 80);
    add("Subdural", 75, 215);
    add("Soft tissue", 40, 400);
    add("Liver", 80, 150);
    add("Lung", -600, 1500);
    add("Bone", 400, 1800);
  }
  const auto [lo, hi] = volume.valueRange();
  add("Full range", (lo + hi) / 2, std::max(hi - lo, 1e-6));
  const auto [plo, phi] = percentileRange(volume, 0.5, 99.5);
  add("Auto", (plo + phi) / 2, std::max(phi - plo, 1e-6));
  return out;
}

WindowLevel defaultWindow(const core::Volume& volume) {
  if (!volume.info().windows.empty()) {
    const auto& w = volume.info().windows.front();
    return {w.center, std::max(w.width, 1e-6)};
  }
  if (looksLikeCt(volume)) {
    return {40, 400};
  }
  const auto [lo, hi] = percentileRange(volume, 0.5, 99.5);
  if (hi > lo) {
    return {(lo + hi) / 2, hi - lo};
  }
  const auto [rlo, rhi] = volume.valueRange();
  return {(rlo + rhi) / 2, std::max(rhi - rlo, 1.0)};
}

WindowLevel dragWindowLevel(const WindowLevel& start, double dx, double dy) {
  const double width = std::max(start.width, 1e-3);
  WindowLevel out;
  out.width = std::clamp(width * std::exp(dx * 0.005), 1e-3, 1e7);
  out.center = start.center + dy * width * 0.0025;
  return out;
}

}  // namespace delineate::viewers
