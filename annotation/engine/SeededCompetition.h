#pragma once
// A geodesic competition between fronts of the structure and of its surroundings over a region
// of interest: each voxel goes to the front that reaches it first, and so to that front's side.
// A step of length l mm from voxel p to q costs l * (1 + edgeWeight * |v(q) - v(p)| / unit +
// u(q)), where u is how unlike the front's tissue q's value is:
//  - for the box's fronts (no value of their own), likelihoodWeight times the other side's
//    log-likelihood ratio at v(q) when positive: the structure's front pays for tissue typical
//    of the surroundings, and the surroundings' front for tissue typical of the structure;
//  - for a click's front, likelihoodWeight times how far v(q) lies from the clicked tissue's
//    value beyond two contrast units (at most 4): a click on the structure's tissue that the
//    box's model called the surroundings' (or the other way round) claims that tissue around it.
// One pass of Dijkstra's algorithm over all fronts at once, so every front's region is
// connected to its seeds.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "annotation/engine/RoiGrid.h"
#include "annotation/engine/TissueLikelihood.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::annotation {

class SeededCompetition {
 public:
  SeededCompetition(const RoiGrid& grid, const std::vector<float>& values,
                    const TissueLikelihood& tissue);

  double edgeWeight = 1.0;
  // Cost per mm of being on an edge: the gradient magnitude at q, in contrast units per voxel.
  // Keeps a front from running along the partial-volume seam between two other tissues, whose
  // values can look like its own.
  double seamWeight = 0.0;
  double likelihoodWeight = 1.0;
  // The same for a click's front, against the clicked tissue's value.
  double clickTissueWeight = 1.0;
  // A click's front claims nothing farther than this cost from its seeds: a click corrects
  // the region around it, never half of a long sheet of the same tissue.
  double clickReach = std::numeric_limits<double>::infinity();
  // The structure's box front pays extra beyond `axisReachMm` from the slice `axisSlice`
  // (work-array coordinate) along `axis`: axisWeight per mm beyond, per axisReachMm. A
  // structure seen on one slice reaches about as far off it as it is wide. axis -1: none.
  int axis = -1;
  std::size_t axisSlice = 0;
  double axisReachMm = 1;
  double axisWeight = 0;
  // No extra cost on the slices before axisSlice, or after it (the user gave that end).
  bool axisFreeBelow = false;
  bool axisFreeAbove = false;

  // A new front of the structure (`structure`) or of its surroundings; with `tissueValue`, a
  // click's front that follows that value. Returns its number for seed().
  std::size_t addFront(bool structure, std::optional<float> tissueValue = std::nullopt);
  // `front` claims nothing farther than `radiusMm` from the voxel `centre` (work-array
  // coordinates).
  void limitToBall(std::size_t front, const core::Size3& centre, double radiusMm);
  // A seed of `front` at work-array index `at`; a later seed on the same voxel replaces an
  // earlier one.
  void seed(std::size_t at, std::size_t front);
  // Per voxel the front that won it, plus one (0: unreached). Throws core::CancelledError when
  // cancelled.
  std::vector<std::uint16_t> owners(core::ProgressSink& progress) const;
  // Whether `front` is one of the structure's.
  bool isStructure(std::size_t front) const { return fronts_[front].structure; }

 private:
  struct Front {
    bool structure = true;
    std::optional<float> value{};
    bool limited = false;
    core::Size3 centre{};
    float radius2 = 0;  // mm squared
  };
  // What entering voxel q costs `front` beyond length and edge, per mm.
  float unlikeness(const Front& front, std::size_t q, float axisExtra) const;

  const RoiGrid& grid_;
  const std::vector<float>& values_;
  const TissueLikelihood& tissue_;
  std::vector<Front> fronts_;
  std::vector<std::uint16_t> seeds_;  // 0 none, else front + 1
};

}  // namespace delineate::annotation
