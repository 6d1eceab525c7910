#include "core/model/Volume.h"

#include <algorithm>

#include "core/Error.h"

namespace delineate::core {

Volume::Volume(ImageGeometry geometry, std::shared_ptr<VoxelBuffer> voxels, VolumeInfo info)
    : geometry_(std::move(geometry)), voxels_(std::move(voxels)), info_(std::move(info)) {
  if (!voxels_ || voxels_->count() != geometry_.voxelCount()) {
    throw Error(ErrorKind::InvalidInput, info_.sourcePath,
                "voxel buffer does not match the image size");
  }
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
      const auto [lo, hi] = std::minmax_element(p, p + n);
      range_ = {static_cast<double>(*lo), static_cast<double>(*hi)};
    });
  });
  return range_;
}

}  // namespace delineate::core
