#pragma once
// A dataset evaluation split into shards (DatasetEvaluationOptions::shardIndex / shardCount,
// `delineate-cli eval --shard K/N`), put back together: each shard's JSON report read, the cases
// merged in name order and the summary computed again from them, which gives exactly the report
// of one process over the whole dataset (every number survives the JSON round trip; the summary
// sees the same values in the same order). docs/metrics.md, "Past one machine".
#include <filesystem>
#include <vector>

#include "core/metrics/DatasetEvaluation.h"

namespace delineate::core {

// An evaluation JSON report (evaluationJson()) read back: cases with their labels and metrics,
// the options and the shard it covers. Throws Error(InvalidInput) naming the file when it is not
// such a report, Error(Io) when it cannot be read.
DatasetEvaluation readEvaluationJson(const std::filesystem::path& path);

// The shards as one evaluation. Throws Error(InvalidInput) when they are of different folders or
// options, when a case appears in two of them, or when a shard of the split is missing or given
// twice (a shard count says how many to expect).
DatasetEvaluation mergeEvaluations(std::vector<DatasetEvaluation> shards);

}  // namespace delineate::core
