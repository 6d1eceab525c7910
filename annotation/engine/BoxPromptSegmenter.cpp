#include "annotation/engine/BoxPromptSegmenter.h"

#include <algorithm>
#include <cmath>

#include "annotation/engine/CoarseGrid.h"
#include "annotation/engine/FrontCompetition.h"
#include "annotation/engine/RoiGrid.h"
#include "annotation/engine/RoiImage.h"
#include "annotation/engine/TissueLikelihood.h"

namespace delineate::annotation {

namespace {

using core::Size3;
using core::VoxelBox;

constexpr int kMaxRoiGrowths = 3;
// A region of interest larger than this (a liver, the white matter of a whole brain) is worked
// on at a coarser grid, blocks of f x f x f voxels averaged, so that one interaction stays
// under a second; the answer's edge is then f voxels coarse.
constexpr std::size_t kMaxWorkVoxels = 750000;

// The box's larger side across the slice, in mm.
double acrossMm(const VoxelBox& box, int axis, const core::Vec3& spacing) {
  double out = 0;
  for (int a = 0; a < 3; ++a) {
    if (a != axis) {
      out = std::max(out, double(box.hi[a] - box.lo[a]) * spacing[a]);
    }
  }
  return out;
}

// The region of interest: the box widened by a quarter of its size (at least 3 voxels) on each
// side across the slice; along the slice axis as far as the box's larger side in mm, each way.
// Every positive click inside, with 3 voxels around it (a negative click outside says only what
// the region already says: the structure is not there).
VoxelBox regionOfInterest(const VoxelBox& box, int axis, const std::vector<GuidanceClick>& clicks,
                          const core::ImageGeometry& g) {
  const double across = acrossMm(box, axis, g.spacing);
  VoxelBox out = box;
  for (int a = 0; a < 3; ++a) {
    const std::size_t pad = a == axis ? std::size_t(std::ceil(across / g.spacing[a]))
                                      : std::max<std::size_t>(3, (box.hi[a] - box.lo[a]) / 4);
    out.lo[a] = out.lo[a] > pad ? out.lo[a] - pad : 0;
    out.hi[a] = std::min(g.size[a], out.hi[a] + pad);
  }
  for (const GuidanceClick& c : clicks) {
    if (!c.positive) {
      continue;
    }
    for (int a = 0; a < 3; ++a) {
      out.lo[a] = std::min(out.lo[a], c.voxel[a] > 3 ? c.voxel[a] - 3 : 0);
      out.hi[a] = std::max(out.hi[a], std::min(g.size[a], c.voxel[a] + 4));
    }
  }
  return intersection(out, VoxelBox::whole(g.size));
}

bool inside(const VoxelBox& b, const Size3& v) {
  return v[0] >= b.lo[0] && v[0] < b.hi[0] && v[1] >= b.lo[1] && v[1] < b.hi[1] &&
         v[2] >= b.lo[2] && v[2] < b.hi[2];
}

// The box widened by `pad` voxels across the slice (not along the slice axis), clipped to `roi`.
VoxelBox widened(const VoxelBox& box, int axis, std::size_t pad, const VoxelBox& roi) {
  VoxelBox out = box;
  for (int a = 0; a < 3; ++a) {
    if (a != axis) {
      out.lo[a] = std::max(roi.lo[a], out.lo[a] > pad ? out.lo[a] - pad : 0);
      out.hi[a] = std::min(roi.hi[a], out.hi[a] + pad);
    }
  }
  return out;
}

// The largest 6-connected piece of `mask` (work-array indices of the grid).
std::vector<std::size_t> largestPiece(const std::vector<std::uint8_t>& mask, const Size3& n) {
  std::vector<std::uint8_t> seen(mask.size(), 0);
  std::vector<std::size_t> best, piece, stack;
  const std::size_t nx = n[0], nxy = n[0] * n[1];
  for (std::size_t start = 0; start < mask.size(); ++start) {
    if (!mask[start] || seen[start]) {
      continue;
    }
    piece.clear();
    stack.assign(1, start);
    seen[start] = 1;
    while (!stack.empty()) {
      const std::size_t at = stack.back();
      stack.pop_back();
      piece.push_back(at);
      const std::size_t x = at % nx, y = (at / nx) % n[1], z = at / nxy;
      const std::size_t next[6] = {x > 0 ? at - 1 : at,   x + 1 < n[0] ? at + 1 : at,
                                   y > 0 ? at - nx : at,  y + 1 < n[1] ? at + nx : at,
                                   z > 0 ? at - nxy : at, z + 1 < n[2] ? at + nxy : at};
      for (const std::size_t m : next) {
        if (mask[m] && !seen[m]) {
          seen[m] = 1;
          stack.push_back(m);
        }
      }
    }
    if (piece.size() > best.size()) {
      best = piece;
    }
  }
  return best;
}

// The box's voxels and the ring's (the voxels just outside it across the slice), as
// work-array indices of the grid.
void boxAndRing(const VoxelBox& box, int axis, std::size_t ringWidth, const RoiGrid& grid,
                std::vector<std::size_t>& inBox, std::vector<std::size_t>& ring) {
  const VoxelBox outer = widened(box, axis, ringWidth, grid.box);
  for (std::size_t z = outer.lo[2]; z < outer.hi[2]; ++z) {
    for (std::size_t y = outer.lo[1]; y < outer.hi[1]; ++y) {
      for (std::size_t x = outer.lo[0]; x < outer.hi[0]; ++x) {
        (inside(box, {x, y, z}) ? inBox : ring).push_back(grid.index({x, y, z}));
      }
    }
  }
}

// The structure's seeds: the largest piece of the box that is more likely the structure than
// the surroundings; the box's centre when that piece holds under a tenth of the box.
std::vector<std::size_t> structureCore(const VoxelBox& box, const std::vector<std::size_t>& inBox,
                                       const std::vector<float>& values,
                                       const TissueLikelihood& tissue, double minRatio,
                                       const RoiGrid& grid) {
  std::vector<std::uint8_t> likely(values.size(), 0);
  for (const std::size_t at : inBox) {
    likely[at] = tissue.logRatio(values[at]) > minRatio ? 1 : 0;
  }
  std::vector<std::size_t> core = largestPiece(likely, grid.extent());
  if (core.size() * 10 < inBox.size()) {
    core.assign(1, grid.index({(box.lo[0] + box.hi[0] - 1) / 2, (box.lo[1] + box.hi[1] - 1) / 2,
                               (box.lo[2] + box.hi[2] - 1) / 2}));
  }
  return core;
}

// The region grown along the slice axis where `fg` reaches its end there, the image goes on and
// the span leaves that end open (by the region's depth); the same region when it need not grow.
VoxelBox grownAlongAxis(const std::vector<std::uint8_t>& fg, const RoiGrid& grid, int axis,
                        const AxisSpan& span, const Size3& imageSize) {
  VoxelBox next = grid.box;
  if (axis < 0) {
    return next;
  }
  const Size3 n = grid.extent();
  const std::size_t a = std::size_t(axis);
  const std::size_t stride = a == 0 ? 1 : a == 1 ? n[0] : n[0] * n[1];
  for (std::size_t at = 0; at < fg.size(); ++at) {
    if (!fg[at]) {
      continue;
    }
    const std::size_t t = (at / stride) % n[a];
    if (t == 0 && grid.box.lo[a] > 0 && !span.lo) {
      next.lo[a] = grid.box.lo[a] > n[a] ? grid.box.lo[a] - n[a] : 0;
    }
    if (t + 1 == n[a] && grid.box.hi[a] < imageSize[a] && !span.hi) {
      next.hi[a] = std::min(imageSize[a], grid.box.hi[a] + n[a]);
    }
  }
  return next;
}

}  // namespace

BoxMask BoxPromptSegmenter::segment(const core::Volume& image, const VoxelBox& drawn, int sliceAxis,
                                    const AxisSpan& givenSpan,
                                    const std::vector<GuidanceClick>& clicks,
                                    core::ProgressSink& progress) const {
  const core::ImageGeometry& g = image.geometry();
  const VoxelBox box = intersection(drawn, VoxelBox::whole(g.size));
  if (box.empty()) {
    return {};
  }
  // The span's ends that leave the box's slice inside; a positive click beyond an end moves it
  // there (the user's later word wins).
  AxisSpan span;
  VoxelBox roi = regionOfInterest(box, sliceAxis, clicks, g);
  const VoxelBox unbounded = roi;
  if (sliceAxis >= 0) {
    const std::size_t a = std::size_t(sliceAxis);
    if (givenSpan.lo && *givenSpan.lo <= box.lo[a]) {
      span.lo = *givenSpan.lo;
    }
    if (givenSpan.hi && *givenSpan.hi > box.lo[a]) {
      span.hi = std::min(*givenSpan.hi, g.size[a]);
    }
    for (const GuidanceClick& c : clicks) {
      if (c.positive && span.lo && c.voxel[a] < *span.lo) {
        span.lo = c.voxel[a];
      }
      if (c.positive && span.hi && c.voxel[a] >= *span.hi) {
        span.hi = c.voxel[a] + 1;
      }
    }
    roi.lo[a] = span.lo.value_or(roi.lo[a]);
    roi.hi[a] = span.hi.value_or(roi.hi[a]);
  }
  // Intensity changes cost by the contrast of the region the structure would be looked for in
  // without the span: where the user bounds it must not change how edges weigh.
  std::vector<float> scale;
  if (roi != unbounded && coarseFactor(unbounded.count(), kMaxWorkVoxels) == 1) {
    scale = smoothedValues(image, RoiGrid{unbounded, g.spacing});
  }
  RoiGrid grid{roi, g.spacing};
  for (int growth = 0;; ++growth) {
    progress.throwIfCancelled();
    const bool coarse = coarseFactor(grid.count(), kMaxWorkVoxels) > 1;
    std::vector<std::uint8_t> fg =
        coarse ? segmentCoarse(image, grid, box, sliceAxis, span, clicks, progress)
               : segmentIn(image, grid, box, sliceAxis, span, scale.empty() ? nullptr : &scale,
                           clicks, progress);
    const VoxelBox next =
        growth < kMaxRoiGrowths ? grownAlongAxis(fg, grid, sliceAxis, span, g.size) : grid.box;
    if (next == grid.box) {
      BoxMask out(grid.box);
      out.bits = std::move(fg);
      progress.report(1.0, "Segmenting");
      return out.shrunkToContent();
    }
    grid.box = next;  // the structure goes on past an end of the region: look farther
  }
}

std::vector<std::uint8_t> BoxPromptSegmenter::segmentCoarse(
    const core::Volume& image, const RoiGrid& grid, const VoxelBox& box, int sliceAxis,
    const AxisSpan& span, const std::vector<GuidanceClick>& clicks,
    core::ProgressSink& progress) const {
  const std::size_t f = coarseFactor(grid.count(), kMaxWorkVoxels);
  const core::VolumePtr coarse = coarseImage(image, grid.box, f);
  const RoiGrid coarseGrid{VoxelBox::whole(coarse->geometry().size), coarse->geometry().spacing};
  VoxelBox coarseBox;
  coarseBox.lo = coarseVoxel(box.lo, grid.box, f);
  for (int a = 0; a < 3; ++a) {
    coarseBox.hi[a] = (box.hi[a] - grid.box.lo[a] + f - 1) / f;
  }
  std::vector<GuidanceClick> coarseClicks;
  for (const GuidanceClick& c : clicks) {
    coarseClicks.push_back({coarseVoxel(c.voxel, grid.box, f), c.positive});
  }
  const std::vector<std::uint8_t> small =
      segmentIn(*coarse, coarseGrid, coarseBox, sliceAxis, span, nullptr, coarseClicks, progress);
  const Size3 n = grid.extent(), nc = coarseGrid.extent();
  std::vector<std::uint8_t> fg(grid.count(), 0);
  for (std::size_t z = 0, at = 0; z < n[2]; ++z) {
    for (std::size_t y = 0; y < n[1]; ++y) {
      for (std::size_t x = 0; x < n[0]; ++x, ++at) {
        fg[at] = small[x / f + nc[0] * (y / f + nc[1] * (z / f))];
      }
    }
  }
  for (const GuidanceClick& c : clicks) {
    fg[grid.index(c.voxel)] = c.positive ? 1 : 0;
  }
  return fg;
}

std::vector<std::uint8_t> BoxPromptSegmenter::segmentIn(const core::Volume& image,
                                                        const RoiGrid& grid, const VoxelBox& box,
                                                        int sliceAxis, const AxisSpan& span,
                                                        const std::vector<float>* scale,
                                                        const std::vector<GuidanceClick>& clicks,
                                                        core::ProgressSink& progress) const {
  const BoxPromptOptions& o = options_;
  const std::vector<float> values = smoothedValues(image, grid);

  std::vector<std::size_t> inBox, ring;
  boxAndRing(box, sliceAxis, std::size_t(o.ringWidth), grid, inBox, ring);
  TissueLikelihood tissue(scale != nullptr ? *scale : values);
  for (const std::size_t at : inBox) {
    tissue.add(true, values[at], 1.0);
  }
  for (const std::size_t at : ring) {
    tissue.add(false, values[at], 1.0);
  }
  tissue.finish();

  FrontSetup setup;
  setup.grid = &grid;
  setup.values = &values;
  setup.tissue = &tissue;
  setup.structureSeeds = structureCore(box, inBox, values, tissue, o.coreRatio, grid);
  setup.surroundingsSeeds = ring;
  setup.openAxis = sliceAxis;
  // A click on a large structure corrects a larger region.
  setup.clickReach =
      std::max(o.clickReach, o.clickReachPerSide * acrossMm(box, sliceAxis, grid.spacing));
  if (sliceAxis >= 0) {
    // Toward an end the user gave, the structure goes as far as that end at no extra cost.
    setup.axis = sliceAxis;
    setup.axisFreeBelow = span.lo.has_value();
    setup.axisFreeAbove = span.hi.has_value();
    setup.axisSlice = box.lo[std::size_t(sliceAxis)] - grid.box.lo[std::size_t(sliceAxis)];
    setup.axisReachMm = std::max(1.0, o.axisReach * acrossMm(box, sliceAxis, grid.spacing));
  }
  return competeFronts(setup, clicks, o, progress);
}

}  // namespace delineate::annotation
