#pragma once
// Rasterises one brush stamp into an edit: a disc in the slice plane (one voxel thick) or a ball.
#include <cstdint>
#include <optional>
#include <utility>

#include "core/edit/LabelMapEdit.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

struct BrushShape {
  double radiusMm = 5.0;
  bool sphere = false;  // false: a disc in the plane with normal `sliceNormal`
};

// Writes `value` into every voxel whose centre lies inside the shape centred at `centre` (LPS
// mm), limited to image values in `range` when given. Returns the number of voxels changed.
std::size_t stampBrush(core::LabelMapEdit& edit, const core::Vec3& centre,
                       const core::Vec3& sliceNormal, const BrushShape& shape, std::uint16_t value,
                       const core::Volume* image = nullptr,
                       std::optional<std::pair<double, double>> range = std::nullopt);

}  // namespace delineate::annotation
