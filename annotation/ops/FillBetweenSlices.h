#pragma once
// Fill between slices (Slicer's effect of that name, ITK-SNAP's interpolation): contours drawn on
// a few slices become a smooth shape on the slices between them.
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::annotation {

// Slices along index axis `axis` (0, 1 or 2) that hold any voxel of `sparse` are keyframes and
// stay as they are. Each slice between two consecutive keyframes k0 < k1 gets, at w = (s - k0) /
// (k1 - k0), the voxels where (1 - w) D0 + w D1 < 0, with D the 2D signed Euclidean distance
// map of a keyframe (distance to the nearest outside voxel, negated, inside; distance to the
// nearest inside voxel outside; in voxel units). Slices before the first and after the last
// keyframe stay empty. Returned over the input box.
BoxMask fillBetweenSlices(const BoxMask& sparse, int axis, core::ProgressSink& progress);

}  // namespace delineate::annotation
