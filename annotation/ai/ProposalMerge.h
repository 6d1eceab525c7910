#pragma once
// Accepting an AI proposal: its voxels written into the user's label map through a LabelMapEdit,
// so the paint-over policy and the locks hold (manual work is never silently overwritten) and the
// whole result is one undo entry.
#include <cstdint>
#include <map>
#include <optional>

#include "core/edit/PaintPolicy.h"
#include "core/edit/VoxelDelta.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

namespace delineate::annotation {

// Writes target[v] = valueMap[proposal[v]] for every voxel of `box` whose proposal value has an
// entry in `valueMap` (values without one are ignored), under `policy`. Returns the delta of
// what changed (already applied; push it as a VoxelEditCommand). Grids must match.
// `refined`: the proposal refines that label's segment (InferRequest::initialMask), so its
// voxels of the box where the proposal is 0 are cleared too.
core::VoxelDelta mergeProposal(const core::LabelMap& proposal, core::LabelMap& target,
                               const std::map<std::uint16_t, std::uint16_t>& valueMap,
                               const core::VoxelBox& box, const core::PaintPolicy& policy,
                               std::optional<std::uint16_t> refined = std::nullopt);

// The same merge worked out without writing `target` (a staged edit), for a worker thread while
// the GUI keeps drawing the map: apply the delta forward on the GUI thread, then push it. The
// map must not change in between. Reports progress per slice; Cancel throws CancelledError.
core::VoxelDelta planProposalMerge(const core::LabelMap& proposal, const core::LabelMap& target,
                                   const std::map<std::uint16_t, std::uint16_t>& valueMap,
                                   const core::VoxelBox& box, const core::PaintPolicy& policy,
                                   core::ProgressSink& progress,
                                   std::optional<std::uint16_t> refined = std::nullopt);

}  // namespace delineate::annotation
