#pragma once
// Region grow / flood fill (ITK-SNAP's and Slicer's "flood filling"): the voxels 6-connected to a
// seed whose image value lies in a range, in 3D or within the seed's slice.
#include <optional>
#include <utility>

#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

// Voxels connected to `seed` through face neighbours (6-connectivity) with image value in
// [lo, hi], over their bounding box. With `sliceAxis` (0, 1 or 2) the fill stays in the seed's
// slice along that index axis (a 2D fill). Empty when the seed lies outside the image or its own
// value is out of range. A scanline fill: visits each voxel a handful of times and keeps one bit
// per image voxel plus the filled spans. Polls progress.throwIfCancelled().
BoxMask regionGrow(const core::Volume& image, core::Size3 seed, double lo, double hi,
                   std::optional<int> sliceAxis, core::ProgressSink& progress);

// mean - k SD .. mean + k SD of the image values in the (2r+1)^3 neighbourhood of `seed`
// (clipped to the image): the range a click grows with when none is set.
std::pair<double, double> neighbourhoodRange(const core::Volume& image, core::Size3 seed,
                                             std::size_t radius = 2, double sdFactor = 2.5);

}  // namespace delineate::annotation
