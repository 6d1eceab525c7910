#pragma once
// Margin (Slicer's Margin effect, ITK-SNAP's dilate/erode): grow or shrink a mask by a distance
// in mm, measured with the image spacing.
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

// marginMm > 0: every voxel whose centre lies within marginMm of a mask voxel centre joins;
// marginMm < 0: every mask voxel within |marginMm| of a non-mask voxel of the volume leaves
// (the volume's edge is not background). Distances are Euclidean in mm (exact, Maurer), so 3 mm
// on 1x1x3 mm voxels grows 3 voxels along x and y and 1 along z. The result's box is the input
// box expanded by the margin and clipped to `volumeSize` (for a shrink: the input box).
BoxMask growShrink(const BoxMask& mask, double marginMm, const core::Vec3& spacing,
                   const core::Size3& volumeSize, core::ProgressSink& progress);

}  // namespace delineate::annotation
