#pragma once
// One pass of the point-guided segmenter inside its region of interest: the voxels whose
// smoothed value an intensity model accepts, opened so that thin bridges to other structures
// break (unless the structure is itself a sheet), shared out between the clicks by geodesic
// competition, and given back their edge.
#include <cstdint>
#include <vector>

#include "annotation/engine/Clicks.h"
#include "annotation/engine/IntensityModel.h"
#include "annotation/engine/RoiImage.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::annotation {

struct RegionParams {
  double edgeWeight = 1;        // GeodesicCompetition's cost of an intensity change
  double negativeReachMm = 40;  // how far a negative click cuts
  double positiveReachMm = 40;  // how far a later click on a known tissue adds
  double localEditMm = 6;       // radius of an edge click's local band (IntensityModel)
  int maxOpening = 3;           // largest opening radius, in voxels
  bool open = true;             // false: no opening (and no edge regrowth)
  // The region of interest's border competes as background: what lies nearer to it than to the
  // clicks is left out (a structure whose tissue runs on beyond the region of interest:
  // PointGuidedSegmenter's bounded start). Only the faces inside `bounds` (volume voxels: the
  // image, or the box the structure is known to lie in): nothing lies beyond the others.
  bool borderIsBackground = false;
  core::VoxelBox bounds;
};

// 1 for the region's voxels over roi.grid, 0 elsewhere. `clicks` in volume voxels (those
// outside the region of interest are ignored). The opening's radius is a quarter of how deep
// the deepest positive click sits in the candidates (1 to maxOpening voxels): thin structures
// keep their shape, large ones shed the sheets of like tissue they touch. A sheet itself (a
// cortical ribbon: the clicks at most 3 voxels deep, the region opened reaching 64 times the
// volume of the cube around the deepest) is not opened, and its voxels, nearly all partial
// volume, are judged on the image sharpened by one deconvolution step with band edges that
// follow the tissues' local drift (LocalBandShift). Clicks that founded a
// tissue (IntensityModel::foundsTissue) reach as far as it goes; later positive clicks on a
// known tissue only add what lies near them, so that a click at a leak's mouth does not open it.
std::vector<std::uint8_t> competeForRegion(const RoiImage& roi, const IntensityModel& model,
                                           const std::vector<GuidanceClick>& clicks,
                                           const RegionParams& params,
                                           core::ProgressSink& progress);

}  // namespace delineate::annotation
