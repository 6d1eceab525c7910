#pragma once
// The built-in engine's answer to points, boxes, scribbles and lassos together (what
// nnInteractive takes), through the point-guided segmenter:
//  - a point is a click;
//  - a box is a click at its centre; the structure is then kept inside the positive boxes: a 3-D
//    box as drawn, a 2-D box's rectangle widened by a quarter of its size on each side (the
//    structure may be larger on other slices), along the whole slice axis;
//  - a scribble gives up to five clicks spread along the stroke, and a positive one's voxels are
//    kept in the result;
//  - a lasso gives a click at its deepest inside voxel; on its slice the structure is kept
//    inside the lasso's rectangle widened as for a 2-D box;
//  - negative boxes, scribbles and lassos give negative clicks, and their voxels are taken out.
// Deterministic and thread-safe like PointGuidedSegmenter.
#include <vector>

#include "annotation/engine/BoxPromptSegmenter.h"
#include "annotation/engine/PointGuidedSegmenter.h"
#include "core/ai/Prompt.h"

namespace delineate::annotation {

using core::ai::Prompt;
using core::ai::PromptKind;

// The clicks a list of prompts stands for, in order (exposed for tests).
Guidance guidanceOf(const std::vector<Prompt>& prompts, const core::Size3& imageSize);

class PromptSegmenter {
 public:
  explicit PromptSegmenter(SegmenterOptions options = {}) : clicks_(options) {}

  // The structure over the whole image's grid (box = its extent; empty without a positive
  // prompt inside the image). Throws core::CancelledError when cancelled.
  BoxMask segment(const core::Volume& image, const std::vector<Prompt>& prompts,
                  core::ProgressSink& progress) const;

 private:
  PointGuidedSegmenter clicks_;
  BoxPromptSegmenter boxes_;
};

}  // namespace delineate::annotation
