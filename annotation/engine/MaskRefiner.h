#pragma once
// Refines a structure the user already has (the selected segment, or nnInteractive's initial
// segmentation) with prompts: the mask plays the part the box plays for BoxPromptSegmenter.
//  - the tissue model: the mask's values against those of a band three voxels wide around it;
//  - the structure's seeds: the layer of the mask two voxels in from its edge (the whole mask
//    where it is thinner); the surroundings': the layer two voxels out, and the region's sides
//    (the mask's box widened by a quarter, at least 3 voxels, and every click);
//  - the same competition of fronts, each click a front of its own (FrontCompetition).
// Without clicks the answer is the mask with its edge settled on the image within two voxels;
// each click changes the region around it. Deterministic and thread-safe.
#include <vector>

#include "annotation/engine/BoxPromptOptions.h"
#include "annotation/engine/Clicks.h"
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

class MaskRefiner {
 public:
  explicit MaskRefiner(BoxPromptOptions options = {}) : options_(options) {}

  // `initial` on the image grid (any box); the refined structure over the image grid (empty
  // when `initial` is). Throws core::CancelledError when cancelled.
  BoxMask refine(const core::Volume& image, const BoxMask& initial,
                 const std::vector<GuidanceClick>& clicks, core::ProgressSink& progress) const;

 private:
  BoxPromptOptions options_;
};

}  // namespace delineate::annotation
