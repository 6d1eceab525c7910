#pragma once
// Islands (Slicer's Islands effect): the 6-connected components of a mask.
#include <cstddef>
#include <vector>

#include "annotation/ops/BoxMask.h"

namespace delineate::annotation {

// Voxel counts of the 6-connected components, largest first.
std::vector<std::size_t> islandSizes(const BoxMask& mask);
// Only the largest 6-connected component (the first found in x-fastest order on a tie), over the
// same box as the input so that applying it clears the other islands.
BoxMask keepLargestIsland(const BoxMask& mask);
// The components of at least `minVoxels` voxels, over the same box as the input.
BoxMask removeSmallIslands(const BoxMask& mask, std::size_t minVoxels);

}  // namespace delineate::annotation
