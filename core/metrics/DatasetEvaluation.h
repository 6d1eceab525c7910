#pragma once
// Evaluation of a whole dataset: the label files of a test folder against those of a reference
// folder, paired by case name (DatasetPairing), labels matched by segment name or value
// (LabelMatching), every label of every case measured by compareLabelMaps, and a summary per
// label over the cases. A case that cannot be evaluated (missing pair, grid difference, file not
// readable) is reported with its reason and the others are still evaluated. docs/metrics.md.
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/metrics/PairEvaluation.h"
#include "core/metrics/SummaryStatistics.h"

namespace delineate::core {

struct DatasetEvaluationOptions {
  std::vector<std::string> labels;  // segment names to evaluate, in this order; empty: all
  double toleranceMm = 1.0;         // surface Dice tolerance
  // A test map on another grid: resampled onto the reference grid (nearest neighbour) when set,
  // else the case is reported with the exact difference.
  bool resample = false;
  // One shard of a dataset split over several processes or machines (`--shard K/N`): of the
  // cases sorted by name, those at positions p with p % shardCount == shardIndex (0-based). The
  // shards' JSON reports merge (EvaluationMerge.h) into exactly the one-process result.
  std::size_t shardIndex = 0;
  std::size_t shardCount = 1;
};

enum class CaseStatus { Ok, MissingReference, MissingTest, GridDiffers, Unreadable };

const char* toString(CaseStatus status);  // "ok", "missing reference", ...

struct CaseEvaluation {
  std::string name;
  std::vector<std::filesystem::path> reference;  // the case's files; empty when missing
  std::vector<std::filesystem::path> test;
  CaseStatus status = CaseStatus::Ok;
  std::string detail;  // the grid difference or the error; empty when ok
  bool resampled = false;
  bool matchedByName = false;
  std::vector<std::string> notes;  // label scheme differences, resampling, reader warnings
  std::vector<LabelEvaluation> labels;
  std::string statusText() const;  // "ok", "grid differs: size 10x10x10 vs 10x10x11", ...
};

struct LabelSummary {
  std::string name;
  std::size_t cases = 0;        // evaluated cases with this label
  std::size_t emptyInBoth = 0;  // of those, cases where neither map has it (left out below)
  std::array<SummaryStatistics, kEvaluationMetrics.size()> metrics{};
  const SummaryStatistics& metric(Metric m) const { return metrics[index(m)]; }
};

struct DatasetEvaluation {
  std::filesystem::path referenceFolder;
  std::filesystem::path testFolder;
  DatasetEvaluationOptions options;
  std::vector<CaseEvaluation> cases;
  std::vector<LabelSummary> summary;  // labels in order of first appearance
  std::size_t evaluatedCases() const;
};

// Per-case progress ("case 3/40: liver_03"); throws CancelledError when cancelled, Error(Io)
// when a folder cannot be listed. Every per-case failure is reported in its CaseEvaluation.
DatasetEvaluation evaluateDataset(const std::filesystem::path& referenceFolder,
                                  const std::filesystem::path& testFolder,
                                  const DatasetEvaluationOptions& options, ProgressSink& progress);

// The summary per label over the evaluated cases (exposed for tests).
std::vector<LabelSummary> summarizeCases(const std::vector<CaseEvaluation>& cases);

}  // namespace delineate::core
