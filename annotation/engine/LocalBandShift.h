#pragma once
// Band edges that follow a tissue whose value drifts across the region of interest (an MR
// receive-coil bias field): per block of the region, how far each value the bands are built on
// (a tissue's and its neighbours') has moved there, measured on the flat voxels
// (RoiImage::flat) near it in the block and the blocks around; a band's edge moves by the mean
// of the moves of the two values it lies half way between (by the tissue's own move on a side
// without a neighbour).
#include <cstdint>
#include <vector>

#include "annotation/engine/IntensityModel.h"
#include "annotation/engine/RoiImage.h"

namespace delineate::annotation {

class LocalBandShift {
 public:
  LocalBandShift(const RoiImage& roi, const std::vector<IntensityBand>& bands);

  // The group of the band holding `value` at work-array index `at` with its edges moved there
  // (0 when none does).
  std::uint8_t groupOf(float value, std::size_t at) const;
  // groupOf for every voxel of `values` (over the region of interest) into `out` (same size).
  void groups(const std::vector<float>& values, std::vector<std::uint8_t>& out) const;

 private:
  static constexpr std::size_t kBlock = 16;
  core::Size3 n_{};
  core::Size3 blocks_{};
  std::vector<IntensityBand> bands_;
  std::vector<float> lo_, hi_;  // per block, then per band: the moved edges

  std::size_t blockOf(std::size_t at) const;
};

}  // namespace delineate::annotation
