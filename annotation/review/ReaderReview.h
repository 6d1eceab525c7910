#pragma once
// The readers view's logic, without Qt: several readers' label maps of one image compared on one
// structure. Computes (in a job) the readers x readers agreement (Dice, HD95), the votes map and
// the disagreement regions; keeps where the reviewer is among the regions; gives the adjudicated
// map's starting point (the majority vote) and, when the reviewer signs, the record of whose
// version each region kept. The Qt side (app/gui/readers) only runs the job, draws and steps.
// docs/validating.md, "Several readers".
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/metrics/AdjudicationRecord.h"
#include "core/metrics/DisagreementRegions.h"
#include "core/metrics/ReaderAgreement.h"
#include "core/metrics/ReaderVotes.h"

namespace delineate::annotation {

class ReaderReview {
 public:
  struct Input {
    // On one grid; read during compute() only (the review keeps no copy of them).
    std::vector<const core::LabelMap*> readers;
    std::vector<std::string> names;  // one per reader (default: the maps' names)
    // How each reader's map was made (AI backend and model, tools), for the record; may be empty.
    std::vector<std::string> tools;
    std::string structure;  // segment name; empty: `value` in every map
    std::uint16_t value = 1;
    std::size_t minRegionVoxels = 1;
  };

  // A job's work. Throws core::Error(InvalidInput) for fewer than two readers, a reader on
  // another grid or a structure no reader has (named); CancelledError.
  static ReaderReview compute(Input input, core::ProgressSink& progress);

  const std::vector<std::string>& names() const { return names_; }
  // The segment name, or "label N" when the maps are compared by value.
  const std::string& structure() const { return matrices_.label; }
  const core::ReaderVotes& votes() const { return votes_; }
  const std::vector<core::DisagreementRegion>& regions() const { return regions_; }
  // The structure's Dice and HD95 matrices (readers in input order).
  const core::ReaderMatrices& matrices() const { return matrices_; }

  // Where the reviewer is: -1 before the first region.
  int current() const { return current_; }
  const core::DisagreementRegion* currentRegion() const;
  // Largest region first; false (staying) at the end or the start.
  bool next();
  bool previous();
  bool select(int region);
  // "Region 2 of 14: 812 voxels, marked by A and B, not by C".
  std::string describe(int region) const;

  // The adjudicated map's start: named `name`, on the readers' grid, holding the structure (its
  // segment as the first reader that has it defines it) where more than half the readers marked
  // it. A full pass over the grid: call it in a job for large maps.
  std::shared_ptr<core::LabelMap> majorityMap(const std::string& name) const {
    return majorityOf(votes_, segment_, name);
  }
  // The same from the votes alone (what a job needs to carry: no region lists).
  static std::shared_ptr<core::LabelMap> majorityOf(const core::ReaderVotes& votes,
                                                    const core::Segment& segment,
                                                    const std::string& name);
  const core::Segment& segment() const { return segment_; }
  // The structure's value in reader r's map (0: that reader lacks it).
  std::uint16_t readerValue(std::size_t reader) const { return votes_.values.at(reader); }

  // What the adjudicated map (the structure as `label`) kept in each region: the readers whose
  // version it matches voxel for voxel ("A" or "A, B"), else "edited"; with each reader's
  // agreement over the region.
  core::AdjudicationRecord record(const core::LabelMap& adjudicated, std::uint16_t label,
                                  const std::string& reviewer, const std::string& signedAt) const;

 private:
  std::vector<std::string> names_;
  std::vector<std::string> tools_;
  core::Segment segment_;
  core::ReaderVotes votes_;
  std::vector<core::DisagreementRegion> regions_;
  core::ReaderMatrices matrices_;
  int current_ = -1;
};

}  // namespace delineate::annotation
