#include "annotation/engine/FrontCompetition.h"

#include <algorithm>
#include <cmath>

#include "annotation/engine/HoleFilling.h"
#include "annotation/engine/RoiImage.h"
#include "annotation/engine/SeededCompetition.h"
#include "annotation/engine/WorkMorphology.h"

namespace delineate::annotation {

namespace {

using core::Size3;

void smoothInPlace(std::vector<float>& v, const Size3& n) {
  const std::size_t stride[3] = {1, n[0], n[0] * n[1]};
  std::vector<float> line;
  for (int a = 0; a < 3; ++a) {
    if (n[a] < 3) {
      continue;
    }
    line.resize(n[a]);
    const std::size_t s = stride[a];
    for (std::size_t start = 0; start < v.size(); ++start) {
      // Each line once: from the voxels whose coordinate along `a` is 0.
      if ((start / s) % n[a] != 0) {
        continue;
      }
      for (std::size_t t = 0; t < n[a]; ++t) {
        line[t] = v[start + t * s];
      }
      for (std::size_t t = 1; t + 1 < n[a]; ++t) {
        v[start + t * s] = 0.25f * (line[t - 1] + 2 * line[t] + line[t + 1]);
      }
    }
  }
}

// Calls f(at) for the voxels on the grid's sides across `axis` (all six sides for -1).
template <class F>
void forEachSide(const Size3& n, int axis, F&& f) {
  for (std::size_t z = 0; z < n[2]; ++z) {
    for (std::size_t y = 0; y < n[1]; ++y) {
      for (std::size_t x = 0; x < n[0]; ++x) {
        const std::size_t at[3] = {x, y, z};
        for (int a = 0; a < 3; ++a) {
          if (a != axis && (at[a] == 0 || at[a] + 1 == n[a])) {
            f(x + n[0] * (y + n[1] * z));
            break;
          }
        }
      }
    }
  }
}

}  // namespace

std::vector<float> smoothedValues(const core::Volume& image, const RoiGrid& grid) {
  std::vector<float> values = extractValues(image, grid.box);
  smoothInPlace(values, grid.extent());
  return values;
}

namespace {

// The distance in mm from `voxel` (image indices, inside the grid) to the nearest voxel of the
// grid where `mask` is `value`; `limitMm` when there is none that near.
double distanceTo(std::uint8_t value, const std::vector<std::uint8_t>& mask, const RoiGrid& grid,
                  const core::Size3& voxel, double limitMm) {
  const double thinnest = std::min({grid.spacing[0], grid.spacing[1], grid.spacing[2]});
  for (double radius = 2 * thinnest;; radius = std::min(2 * radius, limitMm)) {
    double best2 = radius * radius;
    bool found = false;
    grid.forEachInBall(voxel, radius, [&](std::size_t at) {
      if (mask[at] != value) {
        return;
      }
      const Size3 n = grid.extent();
      const std::size_t p[3] = {at % n[0], (at / n[0]) % n[1], at / (n[0] * n[1])};
      double d2 = 0;
      for (int a = 0; a < 3; ++a) {
        const double d = (double(p[a] + grid.box.lo[a]) - double(voxel[a])) * grid.spacing[a];
        d2 += d * d;
      }
      if (d2 <= best2) {
        best2 = d2;
        found = true;
      }
    });
    if (found) {
      return std::sqrt(best2);  // every voxel nearer than `radius` was looked at
    }
    if (radius >= limitMm) {
      return limitMm;
    }
  }
}

// The competition, click k seeding the ball of seedMm[k] around it (options.clickSeedMm where
// seedMm is empty) and its front limited to the ball of limitMm[k] (none where empty or 0).
std::vector<std::uint8_t> compete(const FrontSetup& setup, const std::vector<GuidanceClick>& clicks,
                                  const std::vector<double>& seedMm,
                                  const std::vector<double>& limitMm, const BoxPromptOptions& o,
                                  core::ProgressSink& progress) {
  const RoiGrid& grid = *setup.grid;
  const std::vector<float>& values = *setup.values;
  const Size3 n = grid.extent();
  SeededCompetition competition(grid, values, *setup.tissue);
  competition.edgeWeight = o.edgeWeight;
  competition.seamWeight = o.seamWeight;
  competition.likelihoodWeight = o.likelihoodWeight;
  competition.clickTissueWeight = o.clickTissueWeight;
  competition.clickReach = setup.clickReach;
  if (setup.axis >= 0) {
    competition.axis = setup.axis;
    competition.axisSlice = setup.axisSlice;
    competition.axisReachMm = setup.axisReachMm;
    competition.axisFreeBelow = setup.axisFreeBelow;
    competition.axisFreeAbove = setup.axisFreeAbove;
    competition.axisWeight = o.axisWeight;
  }
  const std::size_t structure = competition.addFront(true);
  const std::size_t surroundings = competition.addFront(false);
  for (const std::size_t at : setup.structureSeeds) {
    competition.seed(at, structure);
  }
  for (const std::size_t at : setup.surroundingsSeeds) {
    competition.seed(at, surroundings);
  }
  // The region's sides lie beyond where the structure may reach.
  forEachSide(n, setup.openAxis, [&](std::size_t at) { competition.seed(at, surroundings); });
  for (std::size_t k = 0; k < clicks.size(); ++k) {
    const GuidanceClick& c = clicks[k];
    if (!grid.contains(c.voxel)) {
      continue;
    }
    // Each click a front of its own, following the mean value of its seed ball.
    std::vector<std::size_t> ball;
    grid.forEachInBall(c.voxel, k < seedMm.size() ? seedMm[k] : o.clickSeedMm,
                       [&](std::size_t at) { ball.push_back(at); });
    double sum = 0;
    for (const std::size_t at : ball) {
      sum += values[at];
    }
    const std::size_t front = competition.addFront(
        c.positive, float(sum / double(std::max<std::size_t>(1, ball.size()))));
    for (const std::size_t at : ball) {
      competition.seed(at, front);
    }
    if (k < limitMm.size() && limitMm[k] > 0) {
      competition.limitToBall(
          front,
          {c.voxel[0] - grid.box.lo[0], c.voxel[1] - grid.box.lo[1], c.voxel[2] - grid.box.lo[2]},
          limitMm[k]);
    }
  }
  // The structure: what its box front won, without one-voxel slivers (such as the
  // partial-volume seam between two other tissues whose mixed value looks like its own; the
  // edge voxels the opening took come back), and what the positive clicks' fronts won.
  const std::vector<std::uint16_t> owners = competition.owners(progress);
  std::vector<std::uint8_t> fg(owners.size(), 0);
  for (std::size_t i = 0; i < owners.size(); ++i) {
    fg[i] = owners[i] == structure + 1 ? 1 : 0;
  }
  const double thinnest = std::min({grid.spacing[0], grid.spacing[1], grid.spacing[2]});
  const double thickest = std::max({grid.spacing[0], grid.spacing[1], grid.spacing[2]});
  // (Not on thick slices: an opening there would take the structure's end slices.)
  if (o.removeSlivers && thickest <= 1.5 * thinnest) {
    std::vector<std::uint8_t> opened = fg;
    openCube(opened, n, 1);
    growWithin(opened, fg, n, 1);
    fg = std::move(opened);
  }
  for (std::size_t i = 0; i < owners.size(); ++i) {
    if (owners[i] > surroundings + 1 && competition.isStructure(owners[i] - 1u)) {
      fg[i] = 1;
    }
  }
  std::vector<std::size_t> negatives;
  for (const GuidanceClick& c : clicks) {
    if (!c.positive && grid.contains(c.voxel)) {
      negatives.push_back(grid.index(c.voxel));
    }
  }
  if (o.maxHoleFraction > 0) {
    fillHoles(fg, n, negatives, o.maxHoleFraction);
  }
  for (const GuidanceClick& c : clicks) {
    if (grid.contains(c.voxel)) {
      fg[grid.index(c.voxel)] = c.positive ? 1 : 0;
    }
  }
  return fg;
}

}  // namespace

std::vector<std::uint8_t> competeFronts(const FrontSetup& setup,
                                        const std::vector<GuidanceClick>& clicks,
                                        const BoxPromptOptions& o, core::ProgressSink& progress) {
  const RoiGrid& grid = *setup.grid;
  std::vector<GuidanceClick> positives, negatives;
  for (const GuidanceClick& c : clicks) {
    if (grid.contains(c.voxel)) {
      (c.positive ? positives : negatives).push_back(c);
    }
  }
  // The passes that measure where the clicks sit fill no cavities.
  BoxPromptOptions measuring = o;
  measuring.maxHoleFraction = 0;
  const double thinnest = std::min({grid.spacing[0], grid.spacing[1], grid.spacing[2]});
  const double limitMm = 64 * std::max({grid.spacing[0], grid.spacing[1], grid.spacing[2]});
  // A positive click sits in the middle of what the structure missed: it seeds the ball of
  // clickSeedPerDistance times its distance to the structure that the box and the negative
  // clicks alone give (at least clickSeedMm, at most maxClickSeedVoxels voxels), and its front
  // follows that ball's mean value.
  std::vector<double> seedMm(clicks.size(), o.clickSeedMm);
  if (!positives.empty() && o.clickSeedPerDistance > 0) {
    const std::vector<std::uint8_t> without =
        compete(setup, negatives, {}, {}, measuring, progress);
    const double most = std::max(o.clickSeedMm, o.maxClickSeedVoxels * thinnest);
    for (std::size_t k = 0; k < clicks.size(); ++k) {
      if (clicks[k].positive && grid.contains(clicks[k].voxel)) {
        const double distance = distanceTo(1, without, grid, clicks[k].voxel, limitMm);
        seedMm[k] = std::clamp(o.clickSeedPerDistance * distance, o.clickSeedMm, most);
      }
    }
  }
  // A negative click cuts about as deep as the part of the structure it sits in is thick: its
  // front claims nothing farther than negativeDepthScale times its depth in the structure the
  // box and the positive clicks alone give, plus negativeDepthMm. A click on a thin rim of
  // tissue taken in too much then takes that rim, not the structure behind it. Deep in a thick
  // part, its ball grows as a positive click's does (negativeSeedPerDepth, up to
  // maxNegativeSeedVoxels).
  std::vector<double> cutMm;
  if (!negatives.empty() && o.negativeDepthScale > 0) {
    std::vector<double> positiveSeedMm;
    for (std::size_t k = 0; k < clicks.size(); ++k) {
      if (clicks[k].positive && grid.contains(clicks[k].voxel)) {
        positiveSeedMm.push_back(seedMm[k]);
      }
    }
    const std::vector<std::uint8_t> before =
        compete(setup, positives, positiveSeedMm, {}, measuring, progress);
    cutMm.assign(clicks.size(), 0.0);
    for (std::size_t k = 0; k < clicks.size(); ++k) {
      if (!clicks[k].positive && grid.contains(clicks[k].voxel)) {
        const double depth = distanceTo(0, before, grid, clicks[k].voxel, limitMm);
        cutMm[k] = o.negativeDepthScale * depth + o.negativeDepthMm;
        seedMm[k] = std::clamp(o.negativeSeedPerDepth * depth, o.clickSeedMm,
                               std::max(o.clickSeedMm, o.maxNegativeSeedVoxels * thinnest));
      }
    }
  }
  return compete(setup, clicks, seedMm, cutMm, o, progress);
}

}  // namespace delineate::annotation
