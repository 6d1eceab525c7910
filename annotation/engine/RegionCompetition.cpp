#include "annotation/engine/RegionCompetition.h"

#include <algorithm>

#include "annotation/engine/GeodesicCompetition.h"
#include "annotation/engine/WorkMorphology.h"

namespace delineate::annotation {

namespace {

// The model's group per voxel (0: not a candidate), with the edge clicks' local ranges and the
// positive clicks themselves added.
std::vector<std::uint8_t> candidates(const RoiImage& roi, const IntensityModel& model,
                                     const std::vector<std::size_t>& positives,
                                     double localEditMm) {
  std::vector<std::uint8_t> out(roi.smooth.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = model.groupOf(roi.smooth[i]);
  }
  for (const IntensityModel::LocalRange& r : model.localRanges()) {
    if (roi.grid.contains(r.voxel)) {
      roi.grid.forEachInBall(r.voxel, localEditMm, [&](std::size_t at) {
        if (roi.smooth[at] >= r.lo && roi.smooth[at] <= r.hi) {
          out[at] = r.group;
        }
      });
    }
  }
  for (std::size_t s : positives) {
    if (!out[s]) {
      out[s] = model.nearestGroup(roi.smooth[s]);  // a clicked voxel is in, whatever its value
    }
  }
  return out;
}

}  // namespace

std::vector<std::uint8_t> competeForRegion(const RoiImage& roi, const IntensityModel& model,
                                           const std::vector<GuidanceClick>& clicks,
                                           const RegionParams& params,
                                           core::ProgressSink& progress) {
  const RoiGrid& grid = roi.grid;
  const core::Size3 n = grid.extent();
  CompetitionInput founders;
  founders.grid = &grid;
  founders.values = &roi.smooth;
  founders.sd = roi.smoothNoiseSd;
  founders.edgeWeight = params.edgeWeight;
  founders.negativeReach = params.negativeReachMm;
  CompetitionInput others = founders;
  others.positiveReach = params.positiveReachMm;
  std::vector<std::size_t> positives;
  for (const GuidanceClick& c : clicks) {
    if (!grid.contains(c.voxel)) {
      continue;
    }
    const std::size_t at = grid.index(c.voxel);
    if (!c.positive) {
      founders.negativeSeeds.push_back(at);
      others.negativeSeeds.push_back(at);
      continue;
    }
    positives.push_back(at);
    (model.foundsTissue(c.voxel) ? founders : others).positiveSeeds.push_back(at);
  }

  const std::vector<std::uint8_t> candidate = candidates(roi, model, positives, params.localEditMm);
  std::vector<std::uint8_t> core = candidate;
  int radius = 0;
  if (params.open) {
    int depth = 0;
    for (std::size_t s : positives) {
      depth = std::max(depth, cubeDepth(candidate, n, s, 4 * params.maxOpening));
    }
    radius = std::clamp(depth / 4, 1, std::max(1, params.maxOpening));
    std::vector<std::uint8_t> opened(candidate.size());
    for (std::size_t i = 0; i < opened.size(); ++i) {
      opened[i] = candidate[i] ? 1 : 0;
    }
    openCube(opened, n, radius);
    for (std::size_t i = 0; i < opened.size(); ++i) {
      core[i] = opened[i] ? candidate[i] : 0;
    }
    for (std::size_t s : positives) {
      core[s] = candidate[s];
    }
  }
  founders.candidate = &core;
  others.candidate = &core;
  std::vector<std::uint8_t> won = geodesicCompetition(founders, progress);
  if (!others.positiveSeeds.empty()) {
    const std::vector<std::uint8_t> near = geodesicCompetition(others, progress);
    for (std::size_t i = 0; i < won.size(); ++i) {
      won[i] |= near[i];
    }
  }
  if (params.open) {
    growWithin(won, candidate, n, radius + 1);
  }
  return won;
}

}  // namespace delineate::annotation
