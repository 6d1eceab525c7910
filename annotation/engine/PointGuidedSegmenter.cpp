#include "annotation/engine/PointGuidedSegmenter.h"

#include <algorithm>
#include <cmath>

#include "annotation/engine/CoarseGrid.h"
#include "annotation/engine/HoleFilling.h"
#include "annotation/engine/IntensityModel.h"
#include "annotation/engine/NoiseEstimate.h"
#include "annotation/engine/PartialVolumeRim.h"
#include "annotation/engine/RegionCompetition.h"
#include "annotation/engine/RoiImage.h"
#include "annotation/engine/WorkMorphology.h"

namespace delineate::annotation {

namespace {

constexpr int kMaxRoiGrowths = 10;
// Model refinements per region of interest, and the shell around the region they look at.
constexpr int kRefinements = 4;
constexpr int kShellVoxels = 4;
// Radius of the balls around the positive clicks that the first model looks at (and that the
// noise is measured in).
constexpr double kSampleRadiusMm = 10;
// A bounded start (see the header): when the smoothed tissues vary by over this many times the
// smoothed noise; the region of interest then reaches this many times the first positive click's
// depth in its tissue (+1 voxel) around the clicks, at least kMinBoundedMarginMm. Measured on the
// real brains of scripts/real-anatomy-benchmark.sh (--routes clicks): their tissues vary 19-107
// times the noise, the synthetic samples' 0.6-2; margins of 2-5 times the depth gave the same Dice
// after five clicks within 0.02, 2.5 the fewest clicks that cost Dice.
constexpr double kBoundedVariationRatio = 8;
constexpr double kBoundedMarginPerDepth = 2.5;
constexpr double kMinBoundedMarginMm = 6;
constexpr int kMaxBoundedDepth = 16;

bool inBox(const core::Size3& v, const core::VoxelBox& box) {
  return v[0] >= box.lo[0] && v[0] < box.hi[0] && v[1] >= box.lo[1] && v[1] < box.hi[1] &&
         v[2] >= box.lo[2] && v[2] < box.hi[2];
}

// 1 within `radiusMm` of any of the positive clicks, over the grid.
std::vector<std::uint8_t> ballsAroundPositives(const RoiGrid& grid,
                                               const std::vector<GuidanceClick>& clicks,
                                               double radiusMm) {
  std::vector<std::uint8_t> out(grid.count(), 0);
  for (const GuidanceClick& c : clicks) {
    if (c.positive && grid.contains(c.voxel)) {
      grid.forEachInBall(c.voxel, radiusMm, [&](std::size_t at) { out[at] = 1; });
    }
  }
  return out;
}

// The box grown on each side where `mask` reaches that side and `bounds` leaves room: by the
// box's own extent along that axis (so the region doubles), clipped to `bounds`.
core::VoxelBox grownWhereTouching(const RoiGrid& grid, const std::vector<std::uint8_t>& mask,
                                  const core::VoxelBox& bounds) {
  const core::Size3 n = grid.extent();
  bool touches[3][2] = {};
  for (std::size_t z = 0; z < n[2]; ++z) {
    for (std::size_t y = 0; y < n[1]; ++y) {
      const std::uint8_t* row = mask.data() + n[0] * (y + n[1] * z);
      if (std::find(row, row + n[0], std::uint8_t{1}) == row + n[0]) {
        continue;
      }
      touches[0][0] |= row[0] != 0;
      touches[0][1] |= row[n[0] - 1] != 0;
      touches[1][0] |= y == 0;
      touches[1][1] |= y + 1 == n[1];
      touches[2][0] |= z == 0;
      touches[2][1] |= z + 1 == n[2];
    }
  }
  core::VoxelBox out = grid.box;
  for (int a = 0; a < 3; ++a) {
    if (touches[a][0] && out.lo[a] > bounds.lo[a]) {
      out.lo[a] -= std::min(out.lo[a] - bounds.lo[a], n[a]);
    }
    if (touches[a][1] && out.hi[a] < bounds.hi[a]) {
      out.hi[a] += std::min(bounds.hi[a] - out.hi[a], n[a]);
    }
  }
  return out;
}

std::size_t count(const std::vector<std::uint8_t>& mask) {
  return std::size_t(std::count(mask.begin(), mask.end(), std::uint8_t{1}));
}

// Whether the voxels of `larger` that `smaller` lacks are the structure's own tissue: their
// median smoothed value within two core bands of one of `model`'s tissues. A patch of another
// tissue taken in (bowel at 30 HU beside the spleen's 52) is not; the rest of a cortical ribbon
// whose histogram split it in two modes is.
bool addsOwnTissue(const RoiImage& roi, const std::vector<std::uint8_t>& larger,
                   const std::vector<std::uint8_t>& smaller, const IntensityModel& model,
                   double bandSd) {
  std::vector<float> added;
  for (std::size_t i = 0; i < larger.size(); ++i) {
    if (larger[i] && !smaller[i]) {
      added.push_back(roi.smooth[i]);
    }
  }
  if (added.empty()) {
    return true;
  }
  auto mid = added.begin() + std::ptrdiff_t(added.size() / 2);
  std::nth_element(added.begin(), mid, added.end());
  const double reach = 2 * bandSd * roi.smoothNoiseSd;
  return std::any_of(model.bands().begin(), model.bands().end(),
                     [&](const IntensityBand& b) { return std::abs(*mid - b.centre) <= reach; });
}

// The model of the tissues within kSampleRadiusMm of the positive clicks: the first one.
IntensityModel firstModel(const RoiImage& roi, const std::vector<GuidanceClick>& clicks,
                          double bandSd) {
  return IntensityModel(roi, clicks, bandSd)
      .refined(roi, ballsAroundPositives(roi.grid, clicks, kSampleRadiusMm), 0);
}

// `box` grown by `marginMm` on every side, within `bounds`.
core::VoxelBox paddedBy(const core::VoxelBox& box, double marginMm, const core::ImageGeometry& g,
                        const core::VoxelBox& bounds) {
  core::Size3 margin{};
  for (int a = 0; a < 3; ++a) {
    margin[a] = std::size_t(std::ceil(marginMm / g.spacing[a]));
  }
  return intersection(padded(box, margin, g.size), bounds);
}

// The margin around the clicks in a bounded start: kBoundedMarginPerDepth times how deep the
// first positive click sits in the voxels `model` accepts (a structure's size follows its
// thickness), between kMinBoundedMarginMm and `maxMm`. The first click sets the scale: when a
// later one deeper in a wider tissue did, the region widened on every side (NeuroMaps parcels
// 4 and 196: Dice 0.37 -> 0.24 and 0.56 -> 0.44 after a correct positive click).
double boundedMarginMm(const RoiImage& roi, const IntensityModel& model,
                       const core::Size3& firstPositive, double maxMm) {
  std::vector<std::uint8_t> accepted(roi.smooth.size());
  for (std::size_t i = 0; i < accepted.size(); ++i) {
    accepted[i] = model.candidate(roi.smooth[i]) ? 1 : 0;
  }
  const int depth =
      roi.grid.contains(firstPositive)
          ? cubeDepth(accepted, roi.grid.extent(), roi.grid.index(firstPositive), kMaxBoundedDepth)
          : 0;
  const core::Vec3& s = roi.grid.spacing;
  const double voxelMm = std::min({s[0], s[1], s[2]});
  return std::clamp(kBoundedMarginPerDepth * (depth + 1) * voxelMm, kMinBoundedMarginMm, maxMm);
}

}  // namespace

BoxMask PointGuidedSegmenter::segmentCoarse(const core::Volume& image,
                                            const std::vector<GuidanceClick>& clicks,
                                            const core::VoxelBox& bounds,
                                            core::ProgressSink& progress) const {
  core::SubProgress step(progress, 0.5, 1.0);
  const std::size_t f = coarseFactor(bounds.count(), options_.maxCoarseVoxels);
  const core::VolumePtr coarse = coarseImage(image, bounds, f);
  Guidance coarseGuidance;
  for (const GuidanceClick& c : clicks) {
    coarseGuidance.clicks.push_back({coarseVoxel(c.voxel, bounds, f), c.positive});
  }
  SegmenterOptions options = options_;
  options.clipBox.reset();
  // Its own cache: the coarse image would push the volume's smoothing out of the shared one.
  const BoxMask small = PointGuidedSegmenter(options, std::make_shared<SmoothedImageCache>())
                            .segment(*coarse, coarseGuidance, step);
  if (small.none()) {
    return {};
  }
  BoxMask out = fineMask(small, bounds, f);
  for (const GuidanceClick& c : clicks) {
    if (inBox(c.voxel, out.box)) {
      out.set(c.voxel[0], c.voxel[1], c.voxel[2], c.positive ? 1 : 0);
    }
  }
  progress.report(1.0, "Segmenting");
  return out.shrunkToContent();
}

std::shared_ptr<SmoothedImageCache> PointGuidedSegmenter::sharedCache() {
  static const std::shared_ptr<SmoothedImageCache> cache = std::make_shared<SmoothedImageCache>();
  return cache;
}

BoxMask PointGuidedSegmenter::segment(const core::Volume& image, const Guidance& guidance,
                                      core::ProgressSink& progress) const {
  const core::ImageGeometry& g = image.geometry();
  core::VoxelBox bounds = core::VoxelBox::whole(g.size);
  if (options_.clipBox) {
    bounds = intersection(bounds, *options_.clipBox);
  }
  std::vector<GuidanceClick> clicks;
  std::vector<core::Size3> positives;
  core::VoxelBox box;
  for (const GuidanceClick& c : guidance.clicks) {
    if (inBox(c.voxel, bounds)) {
      clicks.push_back(c);
      box.include(c.voxel[0], c.voxel[1], c.voxel[2]);
      if (c.positive) {
        positives.push_back(c.voxel);
      }
    }
  }
  if (positives.empty()) {
    return {};
  }
  const core::VoxelBox clicked = box;
  box = paddedBy(clicked, options_.initialMarginMm, g, bounds);
  RegionParams params;
  params.edgeWeight = options_.edgeWeight;
  params.negativeReachMm = options_.negativeReachMm;
  params.positiveReachMm = options_.positiveReachMm;
  // The noise where the user clicked (the CT's bowel texture elsewhere would inflate it).
  const double noiseSd = estimateNoiseSdNear(image, positives, kSampleRadiusMm);

  // Tissues that vary by far more than the image's noise, measured around the first positive
  // click: a bounded start (see header), in a region of interest sized by how deep that click
  // sits in its tissue. Decided before the coarse grid below, which would answer a bounded
  // structure unbounded.
  double boundedSd = 0;  // the tissues' variation, in a bounded start
  core::VoxelBox probeBox;
  probeBox.include(positives.front()[0], positives.front()[1], positives.front()[2]);
  probeBox = paddedBy(probeBox, options_.initialMarginMm, g, bounds);
  {
    // The first click decides, with the noise near it alone, so that later clicks keep the
    // start they began with.
    const double firstNoiseSd =
        positives.size() == 1 ? noiseSd
                              : estimateNoiseSdNear(image, {positives.front()}, kSampleRadiusMm);
    RoiImage probe = makeRoiImage(image, probeBox, firstNoiseSd, *cache_, progress);
    const double variationSd = smoothedVariationSd(probe);
    if (variationSd > kBoundedVariationRatio * probe.smoothNoiseSd) {
      boundedSd = variationSd;
      probe.smoothNoiseSd = boundedSd;
      const double marginMm = boundedMarginMm(probe, firstModel(probe, clicks, options_.bandSd),
                                              positives.front(), options_.initialMarginMm);
      params.borderIsBackground = true;
      params.bounds = bounds;
      box = paddedBy(clicked, marginMm, g, bounds);
    }
  }
  // Clicks far apart (a structure clicked at both ends, a negative click across the image) can
  // span half the fine budget from the start: such a region passes the budget as soon as the
  // result touches a side, and its fine pass (seconds on a 35-million-voxel image) would be
  // thrown away. It is worked on at the coarser grid at once.
  if (box.count() > options_.maxFineVoxels / 2 && bounds.count() > options_.maxFineVoxels) {
    return segmentCoarse(image, clicks, bounds, progress);
  }

  RoiImage roi;
  IntensityModel model;
  std::vector<std::uint8_t> fg;
  for (int growth = 0;; ++growth) {
    core::SubProgress step(progress, 0.9 * growth / (growth + 1.0),
                           0.9 * (growth + 1) / (growth + 2.0));
    roi = {};  // freed first, so that the next region of interest can reuse its memory
    roi = makeRoiImage(image, box, noiseSd, *cache_, step);
    if (growth == 0 && boundedSd > 0 && box != probeBox) {
      // The variation near the clicks, where the structure is.
      boundedSd = std::max(roi.smoothNoiseSd, smoothedVariationSd(roi));
    }
    if (boundedSd > 0) {
      roi.smoothNoiseSd = boundedSd;
    }
    // First model: the tissues within a few mm of the positive clicks; then the region found
    // and its shell, until the region stops changing.
    model = firstModel(roi, clicks, options_.bandSd);
    fg = competeForRegion(roi, model, clicks, params, step);
    std::vector<std::uint8_t> before;  // the region one refinement earlier
    // A large region's model moves little after one refinement on every image tried (the
    // sample liver: Dice 0.998 against four; no change in the click benchmarks' Dice, real
    // brains included); further ones only cost time there.
    const int refinements = roi.grid.count() > options_.maxRefinedVoxels ? 1 : kRefinements;
    for (int r = 0; r < refinements; ++r) {
      progress.throwIfCancelled();
      IntensityModel nextModel = model.refined(roi, fg, kShellVoxels);
      std::vector<std::uint8_t> next = competeForRegion(roi, nextModel, clicks, params, step);
      if (next == fg) {
        model = std::move(nextModel);
        break;
      }
      // Swinging between two regions: the smaller one's shell holds too little of a neighbour
      // to make a mode, so the next band takes the neighbour in; the larger one holds enough of
      // it to make a mode, so the band after shuts it out again (the spleen and a patch of
      // bowel). Which one the last refinement left depended on the number of refinements.
      // The larger one stays only if what it adds is the structure's own tissue.
      if (next == before) {
        const bool nextLarger = count(next) > count(fg);
        const bool keepLarger = addsOwnTissue(roi, nextLarger ? next : fg, nextLarger ? fg : next,
                                              nextLarger ? nextModel : model, options_.bandSd);
        if (keepLarger == nextLarger) {
          fg = std::move(next);
          model = std::move(nextModel);
        }
        break;
      }
      before = std::move(fg);
      fg = std::move(next);
      model = std::move(nextModel);
    }
    const core::VoxelBox next = grownWhereTouching(roi.grid, fg, bounds);
    if (next == box || growth >= kMaxRoiGrowths) {
      break;
    }
    if (next.count() > options_.maxFineVoxels && bounds.count() > options_.maxFineVoxels) {
      roi = {};
      return segmentCoarse(image, clicks, bounds, progress);
    }
    box = next;
  }
  // The voxels on the edge that are mostly the structure's tissue against a neighbour farther
  // in value than the one its band stops at (fat or bone beside the spleen).
  addPartialVolumeRim(fg, roi, model);
  const RoiGrid& grid = roi.grid;

  std::vector<std::size_t> negativeSeeds;
  for (const GuidanceClick& c : clicks) {
    if (!c.positive && grid.contains(c.voxel)) {
      negativeSeeds.push_back(grid.index(c.voxel));
    }
  }
  if (options_.maxHoleFraction > 0) {
    fillHoles(fg, grid.extent(), negativeSeeds, options_.maxHoleFraction);
  }
  // The clicked voxels themselves, the last click on a voxel winning.
  for (const GuidanceClick& c : clicks) {
    if (grid.contains(c.voxel)) {
      fg[grid.index(c.voxel)] = c.positive ? 1 : 0;
    }
  }
  BoxMask out(grid.box);
  out.bits = std::move(fg);
  progress.report(1.0, "Segmenting");
  return out.shrunkToContent();
}

}  // namespace delineate::annotation
