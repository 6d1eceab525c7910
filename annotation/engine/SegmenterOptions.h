#pragma once
// Settings of the built-in point-guided segmenter. The defaults suit CT and MR alike; callers
// rarely change them.
#include <cstddef>
#include <optional>

#include "core/model/VoxelBox.h"

namespace delineate::annotation {

struct SegmenterOptions {
  // Half width of a tissue's intensity band, in SDs of the smoothed image's noise.
  double bandSd = 3.0;
  // Geodesic cost of an intensity change of one noise SD, relative to one mm of path.
  double edgeWeight = 1.0;
  // How far a negative click on the structure's own tissue (or on an edge) cuts, as geodesic
  // cost: mm of path, more across intensity changes.
  double negativeReachMm = 40;
  // How far a later positive click on a tissue already clicked adds, likewise.
  double positiveReachMm = 40;
  // Margin around the clicks of the first region of interest; the region doubles along each
  // side the result touches, up to the whole image (or clipBox).
  double initialMarginMm = 24;
  // Fill cavities enclosed by the result (kidney sinus, vessels in the liver) holding at most
  // this fraction of the result's voxels, unless a negative click lies in them; 0 fills none.
  double maxHoleFraction = 0.2;
  // A region of interest that would grow past maxFineVoxels (a structure filling much of a large
  // image, or a leak through a tissue that runs everywhere, such as a brain's grey matter) is
  // worked on again over the whole image at a grid coarse enough for maxCoarseVoxels
  // (CoarseGrid), so that one click stays near a second on a 256^3 image. The brain and abdomen
  // samples (4.4 and 6.3 million voxels) keep their full resolution up to most of their image.
  // Clicks whose first region of interest already holds over half of maxFineVoxels go to the
  // coarser grid at once.
  std::size_t maxFineVoxels = 5000000;
  std::size_t maxCoarseVoxels = 1000000;
  // A region of interest of more voxels than this gets one model refinement instead of up to
  // four (its model moves little after one; the others cost a second on a 4-million-voxel
  // brain).
  std::size_t maxRefinedVoxels = 2000000;
  // The result stays inside this box (extreme points give it).
  std::optional<core::VoxelBox> clipBox;
};

}  // namespace delineate::annotation
