#pragma once
// An immutable scalar image on a patient-space grid. Shared by const pointer between the document,
// worker jobs and views; its voxels are never copied to display or process them.
#include <array>
#include <memory>
#include <mutex>
#include <utility>

#include "core/model/ImageGeometry.h"
#include "core/model/VolumeInfo.h"
#include "core/model/VoxelBuffer.h"

namespace delineate::core {

class Volume {
 public:
  // Throws Error(InvalidInput) when the buffer does not hold exactly geometry.voxelCount() voxels.
  Volume(ImageGeometry geometry, std::shared_ptr<VoxelBuffer> voxels, VolumeInfo info);
  // A colour image (RGB ultrasound, secondary captures, PALETTE COLOR): `voxels` hold its
  // luminance, which tools, statistics and the value readout use; `colour` holds what the views
  // show, R, G, B interleaved (3 x voxelCount) in an unsigned type. Null `colour`: a grey image.
  Volume(ImageGeometry geometry, std::shared_ptr<VoxelBuffer> voxels, VolumeInfo info,
         std::shared_ptr<VoxelBuffer> colour);

  const ImageGeometry& geometry() const { return geometry_; }
  const VolumeInfo& info() const { return info_; }
  ScalarType scalarType() const { return voxels_->type(); }
  const VoxelBuffer& voxels() const { return *voxels_; }
  // The shared buffer, for zero-copy views (ITK import, VTK arrays). Do not write through it.
  std::shared_ptr<const VoxelBuffer> sharedVoxels() const { return voxels_; }
  bool hasColour() const { return colour_ != nullptr; }
  // The R, G, B channels (null for grey images); shared with VTK views like the voxels.
  std::shared_ptr<const VoxelBuffer> sharedColour() const { return colour_; }
  // R, G, B of voxel (i, j, k); {v, v, v} of the voxel value for grey images.
  std::array<double, 3> colourAt(std::size_t i, std::size_t j, std::size_t k) const;
  template <class T>
  const T* data() const {
    return voxels_->as<T>();
  }

  std::size_t linearIndex(std::size_t i, std::size_t j, std::size_t k) const {
    return i + geometry_.size[0] * (j + geometry_.size[1] * k);
  }
  double valueAt(std::size_t i, std::size_t j, std::size_t k) const;
  // Minimum and maximum voxel value; computed once on first use, thread-safe.
  std::pair<double, double> valueRange() const;
  // The 0.5th and 99.5th percentiles of the finite values of an evenly strided sample of about
  // a million voxels: the range an automatic window shows. Computed once, thread-safe.
  std::pair<double, double> displayRange() const;
  // Both of the above, computed now: a loading job calls this so that showing the image costs
  // the GUI thread nothing (on a 512x512x500 CT they take ~0.3 s).
  void computeStatistics() const;

 private:
  ImageGeometry geometry_;
  std::shared_ptr<VoxelBuffer> voxels_;
  VolumeInfo info_;
  std::shared_ptr<VoxelBuffer> colour_;
  mutable std::once_flag rangeOnce_;
  mutable std::pair<double, double> range_{0, 0};
  mutable std::once_flag displayOnce_;
  mutable std::pair<double, double> display_{0, 1};
};

using VolumePtr = std::shared_ptr<const Volume>;

}  // namespace delineate::core
