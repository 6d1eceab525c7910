#pragma once
// What the box segmenter and the mask refiner share: the light smoothing of the region's
// values, and one competition of the structure's front against the surroundings' front (the
// region's sides across an axis among its seeds) with each click a front of its own, cleaned of
// one-voxel slivers (SeededCompetition does the competing).
#include <cstdint>
#include <vector>

#include "annotation/engine/BoxPromptOptions.h"
#include "annotation/engine/Clicks.h"
#include "annotation/engine/RoiGrid.h"
#include "annotation/engine/TissueLikelihood.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

// The values of the grid's box of the image, smoothed by three passes of [1 2 1] / 4 (one per
// axis): a light smoothing that keeps thin edges.
std::vector<float> smoothedValues(const core::Volume& image, const RoiGrid& grid);

struct FrontSetup {
  const RoiGrid* grid = nullptr;
  const std::vector<float>* values = nullptr;  // smoothedValues() of the grid
  const TissueLikelihood* tissue = nullptr;
  std::vector<std::size_t> structureSeeds;     // work-array indices
  std::vector<std::size_t> surroundingsSeeds;  // besides the region's sides
  // The region's sides across this axis seed the surroundings too (-1: all six sides).
  int openAxis = -1;
  // The structure's extra cost off a slice (SeededCompetition::axis...; axis -1: none).
  int axis = -1;
  std::size_t axisSlice = 0;
  double axisReachMm = 1;
  bool axisFreeBelow = false;  // no extra cost before axisSlice
  bool axisFreeAbove = false;  // nor after it
  double clickReach = 30;
};

// 1 where the structure is: what its front won without one-voxel slivers (on grids whose
// thickest spacing is at most 1.5 times the thinnest), plus what the positive clicks won, with
// cavities filled (options.maxHoleFraction) unless a negative click lies in them, and each
// clicked voxel on its click's side. Clicks outside the grid take no part. Where the clicks sit
// is measured first (up to two more competitions): a positive click's seed ball grows with its
// distance to the structure found without the positive clicks, a negative click's with its
// depth in the structure found without the negative ones, which also bounds how far its front
// cuts (options.clickSeedPerDistance, negativeDepthScale, negativeSeedPerDepth). Throws
// core::CancelledError when cancelled.
std::vector<std::uint8_t> competeFronts(const FrontSetup& setup,
                                        const std::vector<GuidanceClick>& clicks,
                                        const BoxPromptOptions& options,
                                        core::ProgressSink& progress);

}  // namespace delineate::annotation
