#include "core/model/FrameSeries.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/Error.h"

namespace delineate::core {

std::string FrameAxis::label(std::size_t k) const {
  std::ostringstream out;
  out << name;
  if (k < values.size()) {
    out << ' ' << std::setprecision(6) << values[k];
    if (!unit.empty()) {
      out << ' ' << unit;
    }
  } else {
    out << ' ' << (k + 1);
  }
  return out.str();
}

std::shared_ptr<const FrameSeries> FrameSeries::make(ImageGeometry grid,
                                                     std::shared_ptr<VoxelBuffer> voxels,
                                                     std::size_t frames, FrameAxis axis,
                                                     VolumeInfo info,
                                                     std::shared_ptr<VoxelBuffer> colour) {
  return std::shared_ptr<const FrameSeries>(new FrameSeries(std::move(grid), std::move(voxels),
                                                            frames, std::move(axis),
                                                            std::move(info), std::move(colour)));
}

FrameSeries::FrameSeries(ImageGeometry grid, std::shared_ptr<VoxelBuffer> voxels,
                         std::size_t frames, FrameAxis axis, VolumeInfo info,
                         std::shared_ptr<VoxelBuffer> colour)
    : grid_(std::move(grid)),
      voxels_(std::move(voxels)),
      frames_(frames),
      axis_(std::move(axis)),
      info_(std::move(info)),
      colour_(std::move(colour)),
      cache_(frames) {
  if (frames_ < 2) {
    throw Error(ErrorKind::InvalidInput, info_.sourcePath, "a 4-D image needs two or more frames");
  }
  if (!voxels_ || voxels_->count() / frames_ != grid_.voxelCount() ||
      voxels_->count() % frames_ != 0) {
    throw Error(
        ErrorKind::InvalidInput, info_.sourcePath,
        "the voxel buffer does not hold " + std::to_string(frames_) + " frames of the grid");
  }
  if (colour_ && colour_->count() != 3 * voxels_->count()) {
    throw Error(ErrorKind::InvalidInput, info_.sourcePath,
                "the colour buffer does not hold three channels of every voxel");
  }
  if (!axis_.values.empty() && axis_.values.size() != frames_) {
    axis_.values.clear();  // a wrong count of values names nothing: number the frames
  }
  info_.frames.reset();
}

VolumePtr FrameSeries::frame(std::size_t k) const {
  if (k >= frames_) {
    throw Error(ErrorKind::InvalidInput, info_.sourcePath,
                "frame " + std::to_string(k + 1) + " of " + std::to_string(frames_));
  }
  std::lock_guard lock(mutex_);
  if (VolumePtr held = cache_[k].lock()) {
    return held;
  }
  const std::size_t n = grid_.voxelCount();
  auto* base = static_cast<unsigned char*>(voxels_->data());
  // The frame's slab of the shared buffer; the slab keeps the whole buffer alive.
  auto slab = std::make_shared<VoxelBuffer>(voxels_->type(), n,
                                            base + k * n * scalarSize(voxels_->type()), voxels_);
  std::shared_ptr<VoxelBuffer> colourSlab;
  if (colour_) {
    auto* rgb = static_cast<unsigned char*>(colour_->data());
    const std::size_t bytes = 3 * n * scalarSize(colour_->type());
    colourSlab = std::make_shared<VoxelBuffer>(colour_->type(), 3 * n, rgb + k * bytes, colour_);
  }
  VolumeInfo info = info_;
  info.frames = shared_from_this();
  info.frameIndex = k;
  auto volume = std::make_shared<const Volume>(grid_, std::move(slab), std::move(info),
                                               std::move(colourSlab));
  cache_[k] = volume;
  return volume;
}

std::vector<double> FrameSeries::valuesAt(std::size_t i, std::size_t j, std::size_t k) const {
  std::vector<double> out(frames_);
  const std::size_t n = grid_.voxelCount();
  const std::size_t at = i + grid_.size[0] * (j + grid_.size[1] * k);
  dispatchScalar(voxels_->type(), [&](auto t) {
    using T = decltype(t);
    const T* p = voxels_->as<T>();
    for (std::size_t f = 0; f < frames_; ++f) {
      out[f] = static_cast<double>(p[f * n + at]);
    }
  });
  return out;
}

}  // namespace delineate::core
