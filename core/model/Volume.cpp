#include "core/model/Volume.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/Error.h"

namespace delineate::core {

Volume::Volume(ImageGeometry geometry, std::shared_ptr<VoxelBuffer> voxels, VolumeInfo info)
    : geometry_(std::move(geometry)), voxels_(std::move(voxels)), info_(std::move(info)) {
  if (!voxels_ || voxels_->count() != geometry_.voxelCount()) {
    throw Error(ErrorKind::InvalidInput, info_.sourcePath,
                "voxel buffer does not match the image size");
  }
}

Volume::Volume(ImageGeometry geometry, std::shared_ptr<VoxelBuffer> voxels, VolumeInfo info,
               std::shared_ptr<VoxelBuffer> colour)
    : Volume(std::move(geometry), std::move(voxels), std::move(info)) {
  colour_ = std::move(colour);
  if (colour_ &&
      (colour_->count() / 3 != geometry_.voxelCount() || colour_->count() % 3 != 0 ||
       colour_->type() == ScalarType::Float32 || colour_->type() == ScalarType::Float64)) {
    throw Error(ErrorKind::InvalidInput, info_.sourcePath,
                "colour buffer does not match the image size");
  }
}

std::array<double, 3> Volume::colourAt(std::size_t i, std::size_t j, std::size_t k) const {
  if (!colour_) {
    const double v = valueAt(i, j, k);
    return {v, v, v};
  }
  const std::size_t n = 3 * linearIndex(i, j, k);
  return dispatchScalar(colour_->type(), [&](auto t) {
    using T = decltype(t);
    const T* p = colour_->as<T>() + n;
    return std::array<double, 3>{static_cast<double>(p[0]), static_cast<double>(p[1]),
                                 static_cast<double>(p[2])};
  });
}

double Volume::valueAt(std::size_t i, std::size_t j, std::size_t k) const {
  const std::size_t n = linearIndex(i, j, k);
  return dispatchScalar(scalarType(), [&](auto t) {
    using T = decltype(t);
    return static_cast<double>(voxels_->as<T>()[n]);
  });
}

std::pair<double, double> Volume::valueRange() const {
  std::call_once(rangeOnce_, [this] {
    dispatchScalar(scalarType(), [this](auto t) {
      using T = decltype(t);
      const T* p = voxels_->as<T>();
      const std::size_t n = voxels_->count();
      if (n == 0) {
        return;
      }
      if constexpr (std::is_floating_point_v<T>) {
        // NaN voxels (undefined values of a parametric or masked image) are no part of the range.
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        for (std::size_t i = 0; i < n; ++i) {
          const double v = static_cast<double>(p[i]);
          if (!std::isnan(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
          }
        }
        range_ = lo <= hi ? std::pair{lo, hi} : std::pair{0.0, 0.0};
      } else {
        const auto [lo, hi] = std::minmax_element(p, p + n);
        range_ = {static_cast<double>(*lo), static_cast<double>(*hi)};
      }
    });
  });
  return range_;
}

std::pair<double, double> Volume::displayRange() const {
  std::call_once(displayOnce_, [this] {
    constexpr std::size_t kSamples = std::size_t(1) << 20;
    const std::size_t n = voxels_->count();
    if (n == 0) {
      return;
    }
    // An odd stride avoids sampling the same column of every row.
    std::size_t stride = std::max<std::size_t>(1, n / kSamples);
    if (stride > 1 && stride % 2 == 0) {
      ++stride;
    }
    std::vector<double> values;
    values.reserve(n / stride + 1);
    dispatchScalar(scalarType(), [&](auto t) {
      using T = decltype(t);
      const T* p = voxels_->as<T>();
      for (std::size_t i = 0; i < n; i += stride) {
        const double v = static_cast<double>(p[i]);
        if (std::isfinite(v)) {
          values.push_back(v);
        }
      }
    });
    if (values.empty()) {
      return;
    }
    auto at = [&](double fraction) {
      const auto k = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1));
      std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k),
                       values.end());
      return values[k];
    };
    display_ = {at(0.005), at(0.995)};
  });
  return display_;
}

void Volume::computeStatistics() const {
  valueRange();
  displayRange();
}

}  // namespace delineate::core
