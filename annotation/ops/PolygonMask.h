#pragma once
// Lasso / polygon fill and scissors: the voxels inside a closed outline drawn on a slice plane.
#include <vector>

#include "annotation/ops/BoxMask.h"
#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

// Voxels whose centre, projected onto the outline's plane (through outlineWorld[0] with normal
// `sliceNormal`), falls inside the closed polygon `outlineWorld` (even-odd rule in the plane's 2D
// coordinates; the last point joins the first). Without `throughAllSlices` only voxels within
// half a voxel of the plane count, measured along the normal as the brush does (an axis-aligned
// outline fills exactly one slice, an oblique one a hole-free slab); with it the outline is
// extruded along the normal through the whole volume (scissors). Empty for fewer than 3 points.
BoxMask polygonMask(const core::ImageGeometry& g, const std::vector<core::Vec3>& outlineWorld,
                    const core::Vec3& sliceNormal, bool throughAllSlices);

}  // namespace delineate::annotation
