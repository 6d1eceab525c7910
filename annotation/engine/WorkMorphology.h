#pragma once
// Small binary morphology on the segmenters' work masks (x-fastest blocks of 0/1 bytes).
#include <cstdint>
#include <vector>

#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

// Opening with a cube of 2 radius + 1 voxels: removes parts of the mask thinner than that, such
// as the partial-volume rims of other tissues, or a thin sheet of the same tissue, through
// which a threshold region would otherwise leak. The block's edge replicates its border voxels
// (a mask reaching the edge is not eroded there).
void openCube(std::vector<std::uint8_t>& mask, const core::Size3& n, int radius);

// The largest r (up to `limit`) such that the cube of radius r around `at` lies inside the mask
// (and the block): how deep inside its region a voxel sits, in voxels.
int cubeDepth(const std::vector<std::uint8_t>& mask, const core::Size3& n, std::size_t at,
              int limit);

// Grows `mask` by up to `steps` face steps into voxels where `allowed` is 1 (a geodesic
// dilation): gives back the edge voxels the opening took, without re-opening long bridges.
void growWithin(std::vector<std::uint8_t>& mask, const std::vector<std::uint8_t>& allowed,
                const core::Size3& n, int steps);

}  // namespace delineate::annotation
