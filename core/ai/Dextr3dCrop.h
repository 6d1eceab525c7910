#pragma once
// DEXTR3D's client side, as NVIDIA's Clara AIAA clients do it (docs/ai.md, "Clara AIAA servers"):
// the model sees a fixed-size region of interest, so the client crops the image to the bounding box
// of the six extreme points padded by the model's `padding` (mm), resamples the crop (linear) to
// the model's `roi` size, rescales the points into it, and pastes the returned mask back (nearest)
// into a label map of the full image. The resampled crop keeps the image's direction; its voxels
// cover the crop's physical extent exactly (ITK's "same extent" resampling).
#include <vector>

#include "core/ai/ClickIndex.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"
#include "core/model/VoxelBox.h"

namespace delineate::core::ai {

struct Dextr3dCrop {
  VoxelBox box;        // the crop in the image's index space (within the image)
  Size3 roi{0, 0, 0};  // the size the crop is resampled to
  ImageGeometry grid;  // the resampled crop's grid (size roi), in the image's world space

  // Where image index `i` on `axis` lies in the crop's continuous index, and back.
  double toCrop(int axis, double i) const;
  double toImage(int axis, double c) const;
};

// Throws Error(InvalidInput) with fewer than six points, a point outside the image, a
// non-positive padding or an empty roi.
Dextr3dCrop planDextr3dCrop(const ImageGeometry& image, const std::vector<VoxelIndex>& points,
                            double paddingMm, const Size3& roi);

// The crop resampled with trilinear interpolation, as float32 (what the model reads).
VolumePtr resampleCrop(const Volume& image, const Dextr3dCrop& crop);

// The points in the crop's voxel indices, rounded and clamped into it.
std::vector<VoxelIndex> pointsInCrop(const std::vector<VoxelIndex>& points,
                                     const Dextr3dCrop& crop);

// The mask on the crop's grid pasted (nearest neighbour) into `into` (the image's grid) inside
// the crop's box; voxels outside the box are left as they are.
void pasteCrop(const LabelMap& mask, const Dextr3dCrop& crop, LabelMap& into);

}  // namespace delineate::core::ai
