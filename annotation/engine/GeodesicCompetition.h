#pragma once
// Competition between positive and negative seeds over the candidate voxels: each candidate
// voxel goes to the seed it is geodesically nearest to, where a step costs its length in mm
// times (1 + edgeWeight * |intensity change| / sd). Clicks on the same tissue thus split it
// where the paths between them meet, preferably at an intensity edge; a negative click removes
// what lies nearer to it than to any positive click, and nothing else.
#include <cstdint>
#include <limits>
#include <vector>

#include "annotation/engine/RoiGrid.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::annotation {

struct CompetitionInput {
  const RoiGrid* grid = nullptr;
  // 0 where no voxel may be reached, else the voxel's group: steps go between equal groups only.
  const std::vector<std::uint8_t>* candidate = nullptr;
  const std::vector<float>* values = nullptr;  // smoothed image
  double sd = 1;
  double edgeWeight = 1;
  std::vector<std::size_t> positiveSeeds;  // work-array indices
  std::vector<std::size_t> negativeSeeds;
  // Negative seeds without a reach limit (the region of interest's border, when what lies beyond
  // it is taken as background).
  std::vector<std::size_t> backgroundSeeds;
  // Negative seeds claim nothing farther than this (geodesic cost, mm at zero contrast): a
  // negative click cuts locally, never half of a long thin structure.
  double negativeReach = std::numeric_limits<double>::infinity();
  // The same for the positive seeds (a later click on the same tissue adds what lies near it).
  double positiveReach = std::numeric_limits<double>::infinity();
};

// 1 for the candidate voxels won by a positive seed, 0 elsewhere. Seeds that are not candidates
// take no part. Without negative seeds and reach limits this is a plain flood fill
// (6-connected).
std::vector<std::uint8_t> geodesicCompetition(const CompetitionInput& in,
                                              core::ProgressSink& progress);

}  // namespace delineate::annotation
