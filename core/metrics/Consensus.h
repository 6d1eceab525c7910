#pragma once
// The consensus of several readers' label maps of one image (all on one grid), with each reader's
// sensitivity and specificity per label against it:
//
// - STAPLE (simultaneous truth and performance level estimation, ITK's STAPLEImageFilter), run
//   per label (that label against everything else) inside the box that holds every reader's
//   labels, grown by `margin` voxels, so that a reader's specificity is measured against the
//   structure's neighbourhood rather than a volume that is mostly air. A consensus voxel takes the
//   label of highest posterior probability when that is at least 0.5, else 0. The sensitivity and
//   specificity are STAPLE's own estimates.
// - Majority vote: a voxel takes the label most readers gave it (background counts as a vote); a
//   tie is 0 and counted as undecided. Each reader is then measured against the vote inside the
//   same box.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

enum class ConsensusMethod { Staple, Vote };

struct ConsensusOptions {
  ConsensusMethod method = ConsensusMethod::Staple;
  int margin = 2;            // voxels around the readers' labels
  int maxIterations = 1000;  // STAPLE's EM, per label
};

struct ReaderLabelAgreement {
  std::uint16_t label = 0;
  double sensitivity = 0;
  double specificity = 0;
};

struct ConsensusResult {
  std::shared_ptr<LabelMap> consensus;
  std::vector<std::uint16_t> labels;  // every label a reader used, ascending
  // [reader][index into labels]
  std::vector<std::vector<ReaderLabelAgreement>> readers;
  std::vector<int> iterations;                  // STAPLE: EM iterations per label
  std::vector<std::size_t> voxels;              // per label, in the consensus
  std::size_t undecided = 0;                    // vote: ties, left 0
  std::array<std::size_t, 3> boxFrom{0, 0, 0};  // the box measured in (voxel indices)
  std::array<std::size_t, 3> boxTo{0, 0, 0};    // exclusive

  // `names`: what to call each reader (their files).
  nlohmann::json toJson(const std::vector<std::string>& names, ConsensusMethod method) const;
};

const char* toString(ConsensusMethod method);  // "staple", "vote"

// Throws Error(InvalidInput) for fewer than two readers or a reader on another grid (named),
// CancelledError on Cancel.
ConsensusResult computeConsensus(const std::vector<const LabelMap*>& readers,
                                 const ConsensusOptions& options, ProgressSink& progress);

}  // namespace delineate::core
