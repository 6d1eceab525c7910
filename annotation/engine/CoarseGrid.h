#pragma once
// A region too large to segment voxel by voxel within an interaction's time, averaged over blocks
// of f x f x f voxels: what the box segmenter and the click segmenter work on when a structure
// (the white matter of a whole brain, a liver) or a leak makes their region very large. The
// answer's edge is then f voxels coarse.
#include <cstddef>
#include <vector>

#include "annotation/ops/BoxMask.h"
#include "core/model/Volume.h"
#include "core/model/VoxelBox.h"

namespace delineate::annotation {

// The smallest block size that brings `count` voxels to at most `maxVoxels`.
std::size_t coarseFactor(std::size_t count, std::size_t maxVoxels);

// The region `roi` of the image averaged over blocks of f^3 voxels (those inside the region), as
// a float image with f times the spacing.
core::VolumePtr coarseImage(const core::Volume& image, const core::VoxelBox& roi, std::size_t f);

// A volume voxel in the coarse image of `roi`.
core::Size3 coarseVoxel(const core::Size3& v, const core::VoxelBox& roi, std::size_t f);

// A mask of the coarse image of `roi` back on the volume's grid, over the part of `roi` its box
// covers.
BoxMask fineMask(const BoxMask& coarse, const core::VoxelBox& roi, std::size_t f);

}  // namespace delineate::annotation
