#pragma once
// Adjudication's one edit: inside a disagreement region, the adjudicated map takes one reader's
// version of the structure. Where the reader marked it, the map gets `label`; where the reader did
// not and the map has `label`, the map gets background. Other structures in the map stay, and
// locked segments and the paint policy hold as for any edit.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/edit/PaintPolicy.h"
#include "core/edit/VoxelDelta.h"
#include "core/model/LabelMap.h"

namespace delineate::annotation {

// `voxels`: the region's linear indices; `marked[n]`: the reader marked voxels[n]
// (core::DisagreementRegion::markedBy). Worked out on a staged edit (the map is not written): the
// caller applies the delta on the thread that owns the map and pushes it as one undo entry.
core::VoxelDelta adoptReaderRegion(const core::LabelMap& target, std::uint16_t label,
                                   const std::vector<std::size_t>& voxels,
                                   const std::vector<bool>& marked,
                                   const core::PaintPolicy& policy = {});

}  // namespace delineate::annotation
