#pragma once
// Settings of the built-in engine's box segmenter and mask refiner (BoxPromptSegmenter,
// MaskRefiner), chosen on real T1 MR with atlas labels (docs/ai-engine.md, "Prompts").

namespace delineate::annotation {

struct BoxPromptOptions {
  // Cost of an intensity change of one contrast unit (a twentieth of the region's central
  // 80 % of values), per mm of path.
  double edgeWeight = 2.0;
  // Cost per mm of lying on an edge (per contrast unit of gradient per voxel).
  double seamWeight = 0.25;
  // Cost of one unit of log-likelihood against the side's tissue, per mm of path.
  double likelihoodWeight = 1.0;
  // Cost per mm of path of a click's front through tissue unlike the clicked one (per contrast
  // unit beyond two, at most four).
  double clickTissueWeight = 3.0;
  // The box's voxels whose log-likelihood ratio passes this are the structure's core.
  double coreRatio = 0.5;
  // Width of the ring around the box, in voxels.
  double ringWidth = 2;
  // How far a click's front reaches, as path cost (mm on its own tissue without edges).
  // At least clickReach, and clickReachPerSide times the box's larger side in mm.
  double clickReach = 30;
  double clickReachPerSide = 0.5;
  // Seeds: each click's ball of this radius; a positive click's ball grows to
  // clickSeedPerDistance times its distance to the structure the box and the negative clicks
  // alone give, up to maxClickSeedVoxels voxels (of the thinnest spacing). 0: no growth.
  double clickSeedMm = 1.5;
  double clickSeedPerDistance = 0.5;
  double maxClickSeedVoxels = 3.5;
  // A negative click's front claims nothing farther from it than negativeDepthScale times its
  // depth (mm to the nearest voxel outside the structure that the positive prompts alone give)
  // plus negativeDepthMm. 0: no such limit.
  double negativeDepthScale = 2.5;
  double negativeDepthMm = 0.5;
  // A negative click's ball grows to negativeSeedPerDepth times that depth, up to
  // maxNegativeSeedVoxels voxels (of the thinnest spacing).
  double negativeSeedPerDepth = 0.5;
  double maxNegativeSeedVoxels = 2.5;
  // Off a 2-D box's slice, the structure pays extra beyond axisReach times the box's larger
  // side: axisWeight per mm beyond, per (axisReach * side) mm.
  double axisReach = 0.5;
  double axisWeight = 2.0;
  // Remove parts of the result one voxel thin (an opening, then one step back within it), on
  // grids whose thickest spacing is at most 1.5 times the thinnest.
  bool removeSlivers = true;
  // Fill cavities holding at most this fraction of the result (0: none).
  double maxHoleFraction = 0.2;
};

}  // namespace delineate::annotation
