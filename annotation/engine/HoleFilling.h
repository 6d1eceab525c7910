#pragma once
// Hole filling for the segmenters' work masks.
#include <cstdint>
#include <vector>

#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

// Sets the cavities of `mask` (x-fastest block of size n): the 6-connected sets of unset voxels
// that reach neither the block's border nor one of `keepOpen` (work-array indices, e.g.
// negative clicks), each as long as it holds at most `maxFraction` times the mask's own voxel
// count. A kidney's sinus is filled; the white matter inside a cortical ribbon is not.
void fillHoles(std::vector<std::uint8_t>& mask, const core::Size3& n,
               const std::vector<std::size_t>& keepOpen, double maxFraction);

}  // namespace delineate::annotation
