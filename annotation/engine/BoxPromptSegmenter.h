#pragma once
// The built-in engine's answer to a box and the clicks that follow it (nnInteractive's protocol:
// a box first, then corrections). The box says more than a click: the structure fills it and
// touches its four sides on the slice it was drawn on, and what lies just outside it there is
// not the structure. From that:
//  - a tissue likelihood (TissueLikelihood): per intensity, how much more often it occurs
//    inside the box than in a ring around it;
//  - the structure's seeds: the largest connected piece of the box that is more likely the
//    structure; against them the ring and the sides of the region of interest;
//  - one geodesic competition over the region of interest (SeededCompetition): each voxel goes
//    to the front that reaches it at the lower cost, a step costing its length in mm times one
//    plus the intensity change, the edge it lies on, and its unlikeliness for that front's
//    tissue; off a 2-D box's slice the structure pays more the farther it goes;
//  - each click a front of its own that follows the tissue it was placed on, up to a reach, so
//    a click on tissue the box's model gave to the other side still claims the region around
//    it, and nothing far away.
// The tissue model comes from the box alone: updating it from the clicks made a single click
// swing the whole result on real anatomy. One-voxel slivers of the box front's region go. A 3-D
// box works the same with its six faces. Deterministic and thread-safe. Tuned on real T1 MR
// with atlas labels drawn on it (docs/ai-engine.md, "Prompts").
#include <optional>
#include <vector>

#include "annotation/engine/BoxPromptOptions.h"
#include "annotation/engine/Clicks.h"
#include "annotation/engine/RoiGrid.h"
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

// The slices along a 2-D box's axis that the structure spans, as far as the user said: its
// first slice `lo` and one past its last `hi`, each given or not.
struct AxisSpan {
  std::optional<std::size_t> lo;
  std::optional<std::size_t> hi;
};

class BoxPromptSegmenter {
 public:
  explicit BoxPromptSegmenter(BoxPromptOptions options = {}) : options_(options) {}

  // `box` in volume indices: one voxel thick along `sliceAxis` (0..2) for a box drawn on a
  // slice, or a 3-D box with sliceAxis -1. `clicks` are the corrections after it, in order.
  // The structure on the image grid (empty when the box lies outside the image). Throws
  // core::CancelledError when cancelled.
  BoxMask segment(const core::Volume& image, const core::VoxelBox& box, int sliceAxis,
                  const std::vector<GuidanceClick>& clicks, core::ProgressSink& progress) const {
    return segment(image, box, sliceAxis, {}, clicks, progress);
  }
  // The same for a box drawn on a slice with what the user said of its span along its axis:
  // the structure lies on no slice before span.lo or from span.hi on, and reaches toward a
  // given end at no extra cost. An end that would leave out the box's slice is not used; a
  // positive click beyond an end moves it to the click.
  BoxMask segment(const core::Volume& image, const core::VoxelBox& box, int sliceAxis,
                  const AxisSpan& span, const std::vector<GuidanceClick>& clicks,
                  core::ProgressSink& progress) const;

 private:
  // One competition over `grid` (which ends where the span does): the structure's voxels as a
  // work array of the grid. `scale`: the values whose spread sets the contrast unit (null: the
  // grid's own).
  std::vector<std::uint8_t> segmentIn(const core::Volume& image, const RoiGrid& grid,
                                      const core::VoxelBox& box, int sliceAxis,
                                      const AxisSpan& span, const std::vector<float>* scale,
                                      const std::vector<GuidanceClick>& clicks,
                                      core::ProgressSink& progress) const;

  // The same on blocks of voxels averaged, for a large region; the answer on `grid`.
  std::vector<std::uint8_t> segmentCoarse(const core::Volume& image, const RoiGrid& grid,
                                          const core::VoxelBox& box, int sliceAxis,
                                          const AxisSpan& span,
                                          const std::vector<GuidanceClick>& clicks,
                                          core::ProgressSink& progress) const;

  BoxPromptOptions options_;
};

}  // namespace delineate::annotation
