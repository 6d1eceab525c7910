#pragma once
// The click simulator of interactive-segmentation benchmarks (NoC@85 / NoC@90): a robot user
// that knows the true mask and clicks at the centre of the largest error region, positive inside
// a miss, negative inside a false positive, until the result is good enough. The segmenter is a
// callback, so the same robot drives the built-in engine or a remote server.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "annotation/engine/Clicks.h"
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/ImageGeometry.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

struct ClickSimulatorOptions {
  int maxClicks = 20;
  // Stop as soon as the Dice reaches this (above 1: always make maxClicks clicks).
  double stopAtDice = 2.0;
};

struct SimulatedClick {
  GuidanceClick click;
  double dice = 0;     // of the result after this click
  double seconds = 0;  // the segmenter's wall time for this click
};

struct ClickSimulation {
  std::vector<SimulatedClick> clicks;
  // Clicks needed to reach `dice` (1-based); nullopt when never reached.
  std::optional<int> clicksToReach(double dice) const;
  double meanSeconds() const;
  double maxSeconds() const;
};

// Segments from all clicks so far (the simulator always passes every click, oldest first).
using GuidedSegmentation = std::function<BoxMask(const Guidance&)>;

// 2|A and B| / (|A| + |B|); 1 when both are empty.
double dice(const BoxMask& a, const BoxMask& b);

// The voxels of `label` in a label image (a ground truth), over their bounding box.
BoxMask maskOfLabel(const core::Volume& labels, std::uint16_t label);

// The simulated user's first prompt in the box-first protocol: the structure's tight 2-D box
// on its largest slice along `axis` (one voxel thick along it). Empty for an empty truth.
core::VoxelBox largestSliceBox(const BoxMask& truth, int axis);

// The CVPR 2025 challenge's box: the structure's tight 2-D box on the middle slice of its
// extent along `axis` (on its largest slice when the middle one holds none of it); the span,
// the top and bottom slice, is the truth's box along `axis`. Empty for an empty truth.
core::VoxelBox middleSliceBox(const BoxMask& truth, int axis);

class ClickSimulator {
 public:
  // `truth`: the structure's true voxels (any box on the volume grid); `spacing` in mm, for the
  // distances that find the centre of an error region.
  ClickSimulator(BoxMask truth, const core::Vec3& spacing, ClickSimulatorOptions options = {});

  // The next click for `prediction`: inside the largest 6-connected region of misses or false
  // positives (by voxel count; misses first on a tie), at its voxel farthest from the region's
  // border (the one nearest the region's centroid among equals). nullopt when prediction is
  // exactly the truth. With an empty prediction this is the first click: the centre of the
  // structure's largest part.
  std::optional<GuidanceClick> nextClick(const BoxMask& prediction) const;

  // Clicks until options.maxClicks or options.stopAtDice; polls progress for cancel between
  // clicks.
  ClickSimulation run(const GuidedSegmentation& segment, core::ProgressSink& progress) const;

  const BoxMask& truth() const { return truth_; }

 private:
  BoxMask truth_;
  core::Vec3 spacing_;
  ClickSimulatorOptions options_;
};

}  // namespace delineate::annotation
