#pragma once
// Dice of one label slice by slice along an index axis, for "worst slices first" review: one
// pass over both maps.
#include <cstdint>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

// One value per slice perpendicular to `axis` (0 = i, 1 = j, 2 = k; size[axis] values): the Dice
// 2 |R ∩ T| / (|R| + |T|) of `label` on that slice, NaN where neither map has the label on it.
// Throws Error(InvalidInput) when the grids differ, the label is 0 or the axis is not 0, 1 or 2.
std::vector<double> sliceDice(const LabelMap& reference, const LabelMap& test, std::uint16_t label,
                              int axis, ProgressSink& progress);

}  // namespace delineate::core
