#pragma once
// One frame of a 2-D image (a mammogram, one slice of a tomosynthesis stack) at several
// resolutions, for a reading view that must stay interactive on 4096 x 5200 images: level 0 is
// the frame itself, each next level halves the previous one (2 x 2 mean) until both sides are at
// most 256 pixels. A view draws from the coarsest level still at least as fine as the screen, so
// its cost follows the viewport's pixels, not the image's.
//
// Pixels are kept as 16-bit display indices: value = origin + index * step. A UInt16 image is its
// own level 0 (the volume's buffer is shared, not copied: origin 0, step 1), and so is an Int16
// image without negative values (12-bit mammograms load as Int16); other Int16 and UInt8 images
// are shifted into that domain, wider and floating-point types quantised over their value range.
// The display table (DisplayLut) is built over the same 65536 indices.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::core::mammo {

struct PyramidLevel {
  std::size_t columns = 0;
  std::size_t rows = 0;
  std::size_t factor = 1;  // level-0 pixels per level pixel, each axis (1, 2, 4, ...)
  const std::uint16_t* pixels = nullptr;  // row by row
};

class ImagePyramid {
 public:
  // Level 0 only (fast: shares a UInt16 frame); levels above it come with buildLevels().
  static std::shared_ptr<ImagePyramid> create(VolumePtr volume, std::size_t frame = 0);
  // The display index of a value of this image, and back.
  double valueOf(std::uint16_t index) const { return origin_ + step_ * index; }
  double origin() const { return origin_; }
  double step() const { return step_; }

  // Adds the coarser levels; cancellable (throws CancelledError). Not thread-safe with readers:
  // build before sharing the pyramid with a view, or use levelsFor() on a finished copy.
  void buildLevels(ProgressSink& progress);
  // A coarse preview only (one level at 1/2^k of the image, sampled, not averaged): cheap enough
  // to show something while buildLevels() runs on another copy.
  void buildPreview(unsigned k);

  const VolumePtr& volume() const { return volume_; }
  std::size_t frame() const { return frame_; }
  std::size_t levelCount() const { return levels_.size(); }
  const PyramidLevel& level(std::size_t i) const { return levels_[i]; }
  std::size_t columns() const { return levels_.front().columns; }
  std::size_t rows() const { return levels_.front().rows; }
  // True once buildLevels() finished (every level present, averaged).
  bool complete() const { return complete_; }
  // The level to draw at `scale` screen pixels per image pixel: the coarsest whose pixels are
  // still no larger than a screen pixel (level 0 when zoomed in). Only levels present count.
  const PyramidLevel& levelFor(double scale) const;
  // Bytes this pyramid holds beyond the shared level 0 (and level 0 when it had to be converted).
  std::size_t ownedBytes() const;

 private:
  ImagePyramid() = default;
  void addLevel(std::vector<std::uint16_t> pixels, std::size_t columns, std::size_t rows,
                std::size_t factor);

  VolumePtr volume_;
  std::size_t frame_ = 0;
  double origin_ = 0;
  double step_ = 1;
  std::vector<PyramidLevel> levels_;
  std::shared_ptr<std::vector<std::uint16_t>> base_;  // level 0 when the image is not UInt16
  std::vector<std::shared_ptr<std::vector<std::uint16_t>>> owned_;  // levels 1...
  bool complete_ = false;
};

using PyramidPtr = std::shared_ptr<const ImagePyramid>;

}  // namespace delineate::core::mammo
