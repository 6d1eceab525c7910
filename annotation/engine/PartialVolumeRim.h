#pragma once
// The partial-volume rim of a region: the voxels just outside its edge that are still more than
// half the structure's tissue, judged against the tissue actually found beyond them.
//
// A tissue's band reaches half way to the nearest neighbouring value (IntensityModel): where
// the true border lies against *that* neighbour. Against a neighbour farther in value it cuts
// too early. The spleen (52 HU) has the bowel (30 HU) for its nearest neighbour, so its band
// stops at 41 HU; a voxel three quarters spleen and a quarter fat (-100 HU) reads 13 HU, one
// three quarters spleen and a quarter rib (600 HU) 190 HU, and both fell outside. Every surface
// that faced a farther neighbour thus lost its outer layer of voxels (a sixth of the spleen, an
// eighth of the liver, a lesion's side against the kidney's cortex). Here the half-way rule is
// applied again per edge voxel, with the neighbour seen beyond it.
#include <cstdint>
#include <vector>

#include "annotation/engine/IntensityModel.h"
#include "annotation/engine/RoiImage.h"

namespace delineate::annotation {

// Adds to `region` (1 = in, over roi.grid) one layer of voxels: those outside every band of
// `model` that touch the region across a face and whose smoothed value lies between the
// region's tissue (the centre of the band of the region voxel they touch) and the value one or
// two steps farther out in the same direction (whichever is farther from that tissue), and
// nearer to the tissue. Voxels the model accepts but the region left out (a negative click's
// cut, a bridge the opening broke) stay out; so does every voxel whose value is no mixture of
// the two.
void addPartialVolumeRim(std::vector<std::uint8_t>& region, const RoiImage& roi,
                         const IntensityModel& model);

}  // namespace delineate::annotation
