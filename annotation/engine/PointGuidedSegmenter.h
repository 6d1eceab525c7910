#pragma once
// The built-in interactive segmenter (no server, no model weights): a 3D structure from positive
// and negative clicks with classical methods. Inside a region of interest around the clicks,
// which doubles along each side the result reaches:
//  1. the image smoothed edge-preservingly (bilateral, SmoothedImageCache), the noise measured
//     near the positive clicks (at most 1.5 times the whole image's: amid the edges of a folded
//     cortex, neighbours differ by more than the noise);
//  2. an intensity model (IntensityModel): the tissues clicked, their neighbours from the
//     histogram modes of flat voxels around the clicks and then around the region found, each
//     tissue's band reaching half way to its neighbours; negative clicks inside another tissue
//     add it as a neighbour;
//  3. the candidate voxels opened, so that thin bridges break, and shared out between the
//     clicks by geodesic competition (RegionCompetition): a negative click on the structure's
//     own tissue, or on an edge, cuts off what lies near it and nearer to it than to a positive
//     click. A sheet (a cortical ribbon) is not opened, and its voxels are judged on the
//     sharpened image with band edges that follow a bias field; steps 2-3 repeat until the
//     region settles (when they swing between two regions, the larger stays only if what it
//     adds has a tissue's value);
//  4. the partial-volume rim added: edge voxels that are mostly the structure's tissue against
//     the neighbour beyond them, when that neighbour lies farther in value than the one the
//     band stops at (PartialVolumeRim);
//  5. cavities filled unless a negative click lies in them; the clicked voxels forced.
// A bounded start where the smoothed tissues vary by far more than the image's noise (a
// template averaged from many scans; anatomy seen at a high signal-to-noise ratio): there a
// band wide enough for the clicked tissue holds its neighbours of the same tissue too (the
// brain's grey matter is one connected network), and a band as narrow as the noise holds a few
// voxels. The bands follow the measured variation (smoothedVariationSd), the region of interest
// reaches a few times the first click's depth in its tissue around the clicks, and its border
// competes as background: the structure is what lies nearer to the clicks than to that border.
// Deterministic: the same image and clicks give the same mask, whatever was segmented before;
// a click changes the result near it (only a click well inside a new tissue adds that tissue).
// Thread-safe: one object serves any number of threads.
#include <memory>

#include "annotation/engine/Clicks.h"
#include "annotation/engine/SegmenterOptions.h"
#include "annotation/engine/SmoothedImageCache.h"
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

class PointGuidedSegmenter {
 public:
  // By default all segmenters share one process-wide cache of smoothed images, so that a
  // segmenter made per request still finds the smoothing of the previous clicks.
  explicit PointGuidedSegmenter(SegmenterOptions options = {},
                                std::shared_ptr<SmoothedImageCache> cache = sharedCache())
      : options_(options), cache_(std::move(cache)) {}

  static std::shared_ptr<SmoothedImageCache> sharedCache();

  const SegmenterOptions& options() const { return options_; }

  // The structure the clicks describe, over its bounding box (empty without a positive click
  // inside the image). Extreme points in `guidance` are ignored here (ExtremePointSegmenter).
  // Throws core::CancelledError when progress is cancelled.
  BoxMask segment(const core::Volume& image, const Guidance& guidance,
                  core::ProgressSink& progress) const;

 private:
  // The clicks' structure segmented over `bounds` at a coarser grid (CoarseGrid), for a region
  // that grew too large to work voxel by voxel.
  BoxMask segmentCoarse(const core::Volume& image, const std::vector<GuidanceClick>& clicks,
                        const core::VoxelBox& bounds, core::ProgressSink& progress) const;

  SegmenterOptions options_;
  // Smoothed images, kept between clicks.
  std::shared_ptr<SmoothedImageCache> cache_;
};

}  // namespace delineate::annotation
