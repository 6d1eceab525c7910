#pragma once
// The built-in engine's answer to points, boxes, scribbles and lassos together (what
// nnInteractive takes):
//  - the first positive box starts the box segmenter (BoxPromptSegmenter), and every other
//    prompt becomes its corrections as clicks;
//  - with the structure as it stands given, the mask refiner (MaskRefiner) takes every prompt
//    as clicks instead;
//  - otherwise the point-guided segmenter answers, and the structure is kept inside the
//    positive boxes (a 3-D box as drawn, a 2-D box's rectangle widened by a quarter of its size
//    on each side, along the whole slice axis);
//  - as clicks: a point is a click, a box its centre, a scribble up to five clicks spread along
//    the stroke, a lasso a click at its deepest inside voxel (guidanceOf());
//  - a positive scribble's voxels are kept in the result; on a lasso's slice the structure is
//    kept inside the lasso's rectangle widened as for a 2-D box; negative boxes, scribbles and
//    lassos take their voxels out.
// Deterministic and thread-safe.
#include <vector>

#include "annotation/engine/BoxPromptSegmenter.h"
#include "annotation/engine/MaskRefiner.h"
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
  // With a non-empty `initial` (the structure as it stands, on the image grid), the prompts
  // refine it (MaskRefiner; every prompt as the clicks guidanceOf() gives, negative strokes
  // still taken out) instead of starting from nothing.
  BoxMask segment(const core::Volume& image, const std::vector<Prompt>& prompts,
                  core::ProgressSink& progress, const BoxMask* initial = nullptr) const;

 private:
  PointGuidedSegmenter clicks_;
  BoxPromptSegmenter boxes_;
  MaskRefiner refiner_;
};

}  // namespace delineate::annotation
