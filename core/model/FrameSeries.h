#pragma once
// The frames of a 4-D image: a time series (fMRI, DCE, perfusion), diffusion b-values, echoes,
// cardiac phases. All frames share one grid and one voxel buffer; each frame is a Volume whose
// voxels are its slab of that buffer (never copied), and whose VolumeInfo points back here.
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/model/ImageGeometry.h"
#include "core/model/Volume.h"

namespace delineate::core {

// What the fourth dimension is, and its value at each frame.
struct FrameAxis {
  std::string name = "frame";  // "time", "b-value", "echo time", "cardiac phase", "frame"
  std::string unit;            // "s", "ms", "s/mm²", "%" or empty
  std::vector<double> values;  // one per frame; empty: frames are only numbered

  // "time 12.5 s", "b-value 1000 s/mm²", "frame 3" (k is 0-based, shown 1-based).
  std::string label(std::size_t k) const;
};

class FrameSeries : public std::enable_shared_from_this<FrameSeries> {
 public:
  // `voxels` holds `frames` frames of grid.voxelCount() voxels each, frame after frame. Throws
  // Error(InvalidInput) when the sizes disagree or there are fewer than two frames.
  static std::shared_ptr<const FrameSeries> make(ImageGeometry grid,
                                                 std::shared_ptr<VoxelBuffer> voxels,
                                                 std::size_t frames, FrameAxis axis,
                                                 VolumeInfo info,
                                                 std::shared_ptr<VoxelBuffer> colour = nullptr);

  std::size_t count() const { return frames_; }
  const FrameAxis& axis() const { return axis_; }
  const ImageGeometry& grid() const { return grid_; }
  ScalarType scalarType() const { return voxels_->type(); }
  // The whole 4-D buffer (frames one after another), for writers.
  std::shared_ptr<const VoxelBuffer> sharedVoxels() const { return voxels_; }
  // Colour frames (a colour cine loop): R, G, B of every voxel of every frame; null for grey.
  std::shared_ptr<const VoxelBuffer> sharedColour() const { return colour_; }

  // Frame k (0-based) as a Volume sharing this series' buffer; its info().frames is this series
  // and info().frameIndex is k. The same Volume is returned while anyone holds it.
  VolumePtr frame(std::size_t k) const;
  // The value of voxel (i, j, k) in every frame: the curve a DCE reader plots.
  std::vector<double> valuesAt(std::size_t i, std::size_t j, std::size_t k) const;

 private:
  FrameSeries(ImageGeometry grid, std::shared_ptr<VoxelBuffer> voxels, std::size_t frames,
              FrameAxis axis, VolumeInfo info, std::shared_ptr<VoxelBuffer> colour);

  ImageGeometry grid_;
  std::shared_ptr<VoxelBuffer> voxels_;
  std::size_t frames_;
  FrameAxis axis_;
  VolumeInfo info_;
  std::shared_ptr<VoxelBuffer> colour_;
  mutable std::mutex mutex_;
  mutable std::vector<std::weak_ptr<const Volume>> cache_;
};

}  // namespace delineate::core
