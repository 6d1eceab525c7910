#include "annotation/engine/RegionCompetition.h"

#include <algorithm>

#include "annotation/engine/GeodesicCompetition.h"
#include "annotation/engine/LocalBandShift.h"
#include "annotation/engine/WorkMorphology.h"

namespace delineate::annotation {

namespace {

// A region is a sheet when its clicks sit at most this deep in the candidates (cubeDepth,
// voxels: a 7-voxel cube fits, a 9-voxel one does not) and it holds more than kSheetSpread
// times the cube the deepest one fits in (four times as wide in each direction as it is
// thick).
constexpr int kSheetDepth = 3;
constexpr double kSheetSpread = 64;
// The model's group per voxel of `values` (0: not a candidate), with the edge clicks' local
// ranges and the positive clicks themselves added.
std::vector<std::uint8_t> candidates(const std::vector<float>& values, const RoiGrid& grid,
                                     const IntensityModel& model,
                                     const std::vector<std::size_t>& positives, double localEditMm,
                                     const LocalBandShift* shift) {
  std::vector<std::uint8_t> out(values.size());
  if (shift) {
    shift->groups(values, out);
  } else {
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i] = model.groupOf(values[i]);
    }
  }
  for (const IntensityModel::LocalRange& r : model.localRanges()) {
    if (grid.contains(r.voxel)) {
      grid.forEachInBall(r.voxel, localEditMm, [&](std::size_t at) {
        if (values[at] >= r.lo && values[at] <= r.hi) {
          out[at] = r.group;
        }
      });
    }
  }
  for (std::size_t s : positives) {
    if (!out[s]) {
      out[s] = model.nearestGroup(values[s]);  // a clicked voxel is in, whatever its value
    }
  }
  return out;
}

// `values` sharpened by one step of Van Cittert deconvolution, 2 v - B v, where B is the
// binomial 3x3x3 blur ([1 2 1] / 4 along each axis): the first-order inverse of a point spread
// of about one voxel, so that a voxel of a thin sheet takes back most of the contrast that its
// neighbours' tissue took from it. The block's edge replicates its border voxels.
std::vector<float> sharpened(const std::vector<float>& values, const core::Size3& n) {
  std::vector<float> blurred(values), next(values.size());
  const std::size_t stride[3] = {1, n[0], n[0] * n[1]};
  for (int axis = 0; axis < 3; ++axis) {
    const std::size_t s = stride[axis];
    for (std::size_t z = 0, i = 0; z < n[2]; ++z) {
      for (std::size_t y = 0; y < n[1]; ++y) {
        for (std::size_t x = 0; x < n[0]; ++x, ++i) {
          const std::size_t at[3] = {x, y, z};
          const std::size_t pos = at[axis];
          const float before = pos > 0 ? blurred[i - s] : blurred[i];
          const float after = pos + 1 < n[axis] ? blurred[i + s] : blurred[i];
          next[i] = 0.25f * (before + after) + 0.5f * blurred[i];
        }
      }
    }
    blurred.swap(next);
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    blurred[i] = 2 * values[i] - blurred[i];
  }
  return blurred;
}

// The candidates opened with a cube of `radius` (0: not opened) so that thin bridges break,
// shared out between the clicks by geodesic competition, and given back the edge the opening
// took.
std::vector<std::uint8_t> shareOut(const std::vector<std::uint8_t>& candidate, int radius,
                                   const std::vector<std::size_t>& positives,
                                   CompetitionInput founders, CompetitionInput others,
                                   core::ProgressSink& progress) {
  const core::Size3 n = founders.grid->extent();
  std::vector<std::uint8_t> core = candidate;
  if (radius > 0) {
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
  if (radius > 0) {
    growWithin(won, candidate, n, radius + 1);
  }
  return won;
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
  if (params.borderIsBackground) {
    // Per axis, whether the low and the high face have something beyond them.
    bool open[3][2];
    for (int a = 0; a < 3; ++a) {
      open[a][0] = grid.box.lo[a] > params.bounds.lo[a];
      open[a][1] = grid.box.hi[a] < params.bounds.hi[a];
    }
    for (std::size_t z = 0, i = 0; z < n[2]; ++z) {
      for (std::size_t y = 0; y < n[1]; ++y) {
        for (std::size_t x = 0; x < n[0]; ++x, ++i) {
          if ((x == 0 && open[0][0]) || (x + 1 == n[0] && open[0][1]) || (y == 0 && open[1][0]) ||
              (y + 1 == n[1] && open[1][1]) || (z == 0 && open[2][0]) ||
              (z + 1 == n[2] && open[2][1])) {
            founders.backgroundSeeds.push_back(i);
          }
        }
      }
    }
    others.backgroundSeeds = founders.backgroundSeeds;
  }
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

  const std::vector<std::uint8_t> candidate =
      candidates(roi.smooth, grid, model, positives, params.localEditMm, nullptr);
  if (!params.open) {
    return shareOut(candidate, 0, positives, founders, others, progress);
  }
  int depth = 0;
  for (std::size_t s : positives) {
    depth = std::max(depth, cubeDepth(candidate, n, s, 4 * params.maxOpening));
  }
  const int radius = std::clamp(depth / 4, 1, std::max(1, params.maxOpening));
  std::vector<std::uint8_t> won =
      shareOut(candidate, radius, positives, founders, others, progress);
  // A sheet (a cortical ribbon): the clicks sit at most a few voxels deep, yet the region
  // reaches far wider than that. Every voxel of it is near its edge: decide on the sharpened
  // values, with band edges that follow the tissues' drift, and do not open (an opening would
  // shred it).
  if (depth <= kSheetDepth) {
    const double side = 2 * depth + 1;
    const auto size = double(std::count(won.begin(), won.end(), std::uint8_t{1}));
    if (size > kSheetSpread * side * side * side) {
      const LocalBandShift shift(roi, model.bands());
      const std::vector<std::uint8_t> sheet =
          candidates(sharpened(roi.smooth, n), grid, model, positives, params.localEditMm, &shift);
      won = shareOut(sheet, 0, positives, founders, others, progress);
    }
  }
  return won;
}

}  // namespace delineate::annotation
