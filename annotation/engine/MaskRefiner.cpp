#include "annotation/engine/MaskRefiner.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

#include "annotation/engine/FrontCompetition.h"
#include "annotation/engine/RoiGrid.h"
#include "annotation/engine/TissueLikelihood.h"

namespace delineate::annotation {

namespace {

using core::Size3;
using core::VoxelBox;

constexpr std::uint8_t kFar = std::numeric_limits<std::uint8_t>::max();

// Per voxel, the number of 6-connected steps (up to 4, else kFar) to the nearest voxel whose
// mask value differs: 1 on either side of the edge.
std::vector<std::uint8_t> stepsToEdge(const std::vector<std::uint8_t>& mask, const Size3& n) {
  std::vector<std::uint8_t> steps(mask.size(), kFar);
  std::deque<std::size_t> queue;
  const std::size_t nx = n[0], nxy = n[0] * n[1];
  auto neighbours = [&](std::size_t at, auto&& f) {
    const std::size_t x = at % nx, y = (at / nx) % n[1], z = at / nxy;
    if (x > 0)
      f(at - 1);
    if (x + 1 < n[0])
      f(at + 1);
    if (y > 0)
      f(at - nx);
    if (y + 1 < n[1])
      f(at + nx);
    if (z > 0)
      f(at - nxy);
    if (z + 1 < n[2])
      f(at + nxy);
  };
  for (std::size_t at = 0; at < mask.size(); ++at) {
    bool edge = false;
    neighbours(at, [&](std::size_t m) { edge = edge || mask[m] != mask[at]; });
    if (edge) {
      steps[at] = 1;
      queue.push_back(at);
    }
  }
  while (!queue.empty()) {
    const std::size_t at = queue.front();
    queue.pop_front();
    if (steps[at] >= 4) {
      continue;
    }
    neighbours(at, [&](std::size_t m) {
      if (steps[m] == kFar && mask[m] == mask[at]) {
        steps[m] = std::uint8_t(steps[at] + 1);
        queue.push_back(m);
      }
    });
  }
  return steps;
}

}  // namespace

BoxMask MaskRefiner::refine(const core::Volume& image, const BoxMask& initial,
                            const std::vector<GuidanceClick>& clicks,
                            core::ProgressSink& progress) const {
  const core::ImageGeometry& g = image.geometry();
  const BoxMask mask = initial.shrunkToContent();
  if (mask.box.empty()) {
    return {};
  }
  VoxelBox roi = mask.box;
  double largestMm = 0;
  for (int a = 0; a < 3; ++a) {
    const std::size_t extent = roi.hi[a] - roi.lo[a];
    largestMm = std::max(largestMm, double(extent) * g.spacing[a]);
    const std::size_t pad = std::max<std::size_t>(3, extent / 4);
    roi.lo[a] = roi.lo[a] > pad ? roi.lo[a] - pad : 0;
    roi.hi[a] = std::min(g.size[a], roi.hi[a] + pad);
  }
  // A positive click widens the region to take it in; a negative one outside it changes nothing
  // (the structure is not there anyway).
  for (const GuidanceClick& c : clicks) {
    if (c.positive && c.voxel[0] < g.size[0] && c.voxel[1] < g.size[1] && c.voxel[2] < g.size[2]) {
      for (int a = 0; a < 3; ++a) {
        roi.lo[a] = std::min(roi.lo[a], c.voxel[a] > 3 ? c.voxel[a] - 3 : 0);
        roi.hi[a] = std::max(roi.hi[a], std::min(g.size[a], c.voxel[a] + 4));
      }
    }
  }
  const RoiGrid grid{roi, g.spacing};
  const std::vector<std::uint8_t> inside = mask.reboxed(roi).bits;
  const std::vector<float> values = smoothedValues(image, grid);
  const std::vector<std::uint8_t> steps = stepsToEdge(inside, grid.extent());

  TissueLikelihood tissue(values);
  FrontSetup setup;
  std::vector<std::size_t> wholeMask;
  for (std::size_t at = 0; at < values.size(); ++at) {
    if (inside[at]) {
      tissue.add(true, values[at], 1.0);
      wholeMask.push_back(at);
      if (steps[at] == 2) {
        setup.structureSeeds.push_back(at);
      }
    } else if (steps[at] <= 3) {
      tissue.add(false, values[at], 1.0);
      if (steps[at] == 2) {
        setup.surroundingsSeeds.push_back(at);
      }
    }
  }
  tissue.finish();
  if (setup.structureSeeds.empty()) {  // thinner than four voxels everywhere
    setup.structureSeeds = std::move(wholeMask);
  }
  setup.grid = &grid;
  setup.values = &values;
  setup.tissue = &tissue;
  setup.openAxis = -1;
  setup.clickReach = std::max(options_.clickReach, options_.clickReachPerSide * largestMm);
  BoxMask out(roi);
  out.bits = competeFronts(setup, clicks, options_, progress);
  progress.report(1.0, "Refining");
  return out.shrunkToContent();
}

}  // namespace delineate::annotation
