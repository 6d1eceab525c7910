#pragma once
// The compare view's logic without Qt: two label maps of one image measured as reference and
// test (core::evaluatePair: labels matched by name or value, every label's metrics), their
// agreement map (agreement, test only, reference only, different label) and its per-slice Dice
// along each index axis, which labels the 3-D distance surfaces show and the colour range they
// need; stepping through slices worst Dice first; the result as a one-case evaluation for the
// CSV. app/gui/compare/CompareController runs it in a job and draws it. docs/validating.md.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/metrics/AgreementMap.h"
#include "core/metrics/DatasetEvaluation.h"
#include "core/metrics/PairEvaluation.h"

namespace delineate::annotation {

struct PairComparison {
  core::PairEvaluation evaluation;  // without the renumbered test (see `compared`)
  std::shared_ptr<core::LabelMap> agreement;
  core::AgreementCounts counts;
  std::array<std::vector<double>, 3> sliceDice;  // per index axis (i, j, k)
  // The test with its labels renumbered onto the reference's (the test itself when nothing was
  // renumbered): what the distance surfaces are built from.
  std::shared_ptr<const core::LabelMap> compared;
  // The reference's values of the labels shown (all matched labels, or the one asked for).
  std::vector<std::uint16_t> shownLabels;
  // Half the surface colour scale: the largest finite HD95 of the shown labels, at least 1 mm.
  double distanceRangeMm = 1.0;
};

// `label` 0: all labels; otherwise the reference's value of the one label to show. Throws what
// evaluatePair and agreementMap throw (another grid, named); CancelledError.
PairComparison comparePair(const std::shared_ptr<const core::LabelMap>& reference,
                           const std::shared_ptr<const core::LabelMap>& test,
                           const core::PairEvaluationOptions& options, std::uint16_t label,
                           core::ProgressSink& progress);

// Worst-slice stepping: from `current`'s place in `order` (worst first), `delta` places on (+1
// next, -1 previous); from a slice not in the order, Next goes to the worst and Previous nowhere.
// nullopt past either end.
std::optional<int> stepInOrder(const std::vector<int>& order, int current, int delta);

// The comparison's label table as a dataset evaluation of one case named `name` (the dataset
// evaluation's CSV columns).
core::DatasetEvaluation asOneCaseEvaluation(const core::PairEvaluation& evaluation,
                                            const std::string& name);

}  // namespace delineate::annotation
