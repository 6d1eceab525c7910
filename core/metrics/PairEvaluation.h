#pragma once
// The evaluation of one reference/test pair of label maps on the same grid, as both the dataset
// evaluation (one case) and the compare view (two maps of the open image) need it: labels matched
// by segment name or value (LabelMatching), the test renumbered onto the reference's values, and
// every matched label measured by compareLabelMaps. docs/metrics.md.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/metrics/MetricDescriptors.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

// The per-label metrics' ids, in the order of the CSV columns (MetricDescriptors.h).
inline constexpr std::array<const char*, kMetricDescriptors.size()> kEvaluationMetrics = [] {
  std::array<const char*, kMetricDescriptors.size()> ids{};
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ids[i] = kMetricDescriptors[i].id;
  }
  return ids;
}();

struct LabelEvaluation {
  std::string name;
  std::uint16_t referenceValue = 0;  // 0: not in the reference's label scheme
  std::uint16_t testValue = 0;       // 0: not in the test's label scheme
  std::uint16_t value = 0;           // in the compared maps (after renumbering); 0: in neither
  // "" or "empty in the reference", "empty in the test", "empty in both",
  // "in neither label scheme".
  std::string note;
  bool inNeither = false;  // empty in both maps: left out of the summary
  std::array<double, kEvaluationMetrics.size()> metrics{};  // NaN where not measured
  double metric(Metric m) const { return metrics[index(m)]; }
};

struct PairEvaluationOptions {
  std::vector<std::string> labels;  // segment names to evaluate, in this order; empty: all
  double toleranceMm = 1.0;         // surface Dice tolerance
  // Whether each map's segment names are real names (a segment table came with it) rather than
  // defaults: labels pair up by name only when both are.
  bool referenceHasTable = true;
  bool testHasTable = true;
};

struct PairEvaluation {
  bool matchedByName = false;
  std::vector<std::string> notes;  // label scheme differences
  std::vector<LabelEvaluation> labels;
  // The test map with its labels renumbered onto the reference's values (and labels in no pair
  // cleared), when that changes anything: what the metrics compared.
  std::optional<LabelMap> renumberedTest;
};

// Throws Error(InvalidInput) naming the difference when the grids differ; CancelledError.
PairEvaluation evaluatePair(const LabelMap& reference, const LabelMap& test,
                            const PairEvaluationOptions& options, ProgressSink& progress);

}  // namespace delineate::core
