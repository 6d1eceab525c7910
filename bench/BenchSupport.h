#pragma once
// Small helpers the benchmarks share: rounding for their JSON, and a label map's non-zero
// voxels as a whole-grid mask.
#include <cmath>

#include "annotation/ops/BoxMask.h"
#include "core/model/LabelMap.h"

namespace delineate::bench {

// `v` rounded to 1 / scale (scale 1000: three decimals).
inline double rounded(double v, double scale) {
  return std::round(v * scale) / scale;
}

// The non-zero voxels of `labels`, over its whole grid.
inline annotation::BoxMask nonZeroMask(const core::LabelMap& labels) {
  annotation::BoxMask m(core::VoxelBox::whole(labels.geometry().size));
  for (std::size_t i = 0; i < labels.voxelCount(); ++i) {
    m.bits[i] = labels.data()[i] != 0;
  }
  return m;
}

}  // namespace delineate::bench
