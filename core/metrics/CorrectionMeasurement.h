#pragma once
// How the final label of a corrected map differs from the AI proposal it started from: Dice and
// surface distances between the two (the metrics of LabelComparison, run on the union of both
// masks' boxes) and the voxels added and removed per slice along k.
#include <cstdint>

#include "core/jobs/ProgressSink.h"
#include "core/metrics/CorrectionRecord.h"
#include "core/metrics/ProposalSnapshot.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

// `finalLabel` (not 0) of `finalMap` against the proposal's label. Reads the final map once in
// parallel, then only the union box. The segment name is the final map's, else the proposal's,
// else "label N". Throws Error(InvalidInput) when the grids differ or the label is 0;
// CancelledError when cancelled.
CorrectionLabel measureCorrection(const ProposalSnapshot& proposal, const LabelMap& finalMap,
                                  std::uint16_t finalLabel, ProgressSink& progress);

}  // namespace delineate::core
