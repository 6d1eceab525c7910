#include "core/io/DicomWindows.h"

#include <algorithm>
#include <cmath>

namespace delineate::core {

namespace {

void addUnique(std::vector<WindowPreset>& windows, WindowPreset w) {
  const bool present = std::any_of(windows.begin(), windows.end(),
                                   [&](const WindowPreset& x) { return x.name == w.name; });
  if (!present && w.width > 0) {
    windows.push_back(std::move(w));
  }
}

// Up to ~1M evenly spread samples of the voxels, as doubles, and the exact value range.
std::vector<double> sample(const VoxelBuffer& voxels, double& mn, double& mx) {
  const std::size_t n = voxels.count();
  const std::size_t stride = std::max<std::size_t>(1, n / (1u << 20));
  std::vector<double> out;
  out.reserve(n / stride + 1);
  dispatchScalar(voxels.type(), [&](auto t) {
    using T = decltype(t);
    const T* p = voxels.as<T>();
    for (std::size_t i = 0; i < n; i += stride) {
      out.push_back(static_cast<double>(p[i]));
    }
    if (n > 0) {
      const auto [lo, hi] = std::minmax_element(p, p + n);
      mn = static_cast<double>(*lo);
      mx = static_cast<double>(*hi);
    }
  });
  return out;
}

double percentile(std::vector<double>& v, double q) {
  const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

void appendDefaultWindows(const std::string& modality, const VoxelBuffer& voxels,
                          std::vector<WindowPreset>& windows) {
  if (modality == "CT") {
    addUnique(windows, {"Soft tissue", 40, 400});
    addUnique(windows, {"Lung", -600, 1500});
    addUnique(windows, {"Bone", 300, 1500});
    addUnique(windows, {"Brain", 40, 80});
    return;
  }
  double mn = 0, mx = 0;
  std::vector<double> values = sample(voxels, mn, mx);
  if (values.empty()) {
    return;
  }
  const double lo = percentile(values, 0.01);
  const double hi = percentile(values, 0.99);
  if (hi > lo) {
    addUnique(windows, {"Auto", (lo + hi) / 2, hi - lo});
  }
  addUnique(windows, {"Full range", (mn + mx) / 2, std::max(1.0, mx - mn)});
}

}  // namespace delineate::core
