#pragma once
// The consensus of several readers over a whole dataset: one folder of label maps per reader,
// cases paired by name (the file name without its extension, as the dataset evaluation pairs
// them), each case's readers merged by computeConsensus and written to an output folder as
// <case>.nii.gz with its segment table, and a JSON report of every case's per-reader sensitivity
// and specificity with a summary (per reader and label: cases, mean sensitivity, mean
// specificity). A dataset of tens of thousands of cases runs in shards (`--shard K/N`: the cases
// at positions K, K+N, ... of the name order) whose reports merge into exactly the report of one
// process. docs/metrics.md, "Consensus over a dataset".
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/metrics/Consensus.h"

namespace delineate::core {

struct DatasetConsensusOptions {
  ConsensusOptions consensus;
  std::filesystem::path out;   // where <case>.nii.gz go (created)
  std::size_t shardIndex = 0;  // 0-based
  std::size_t shardCount = 1;
};

// The report (see docs/metrics.md). A case a reader lacks, or whose maps cannot be read or are on
// other grids, is kept in the report with its `problem` and no consensus file. Throws Error(Io)
// naming a folder that cannot be listed or the output that cannot be written; CancelledError.
nlohmann::ordered_json datasetConsensus(const std::vector<std::filesystem::path>& readerFolders,
                                        const DatasetConsensusOptions& options,
                                        ProgressSink& progress);

// Shards' reports as one. Throws Error(InvalidInput) naming the source of a report that is not
// one, of another method or other readers, a case in two shards, or a shard missing or doubled.
nlohmann::ordered_json mergeDatasetConsensus(const std::vector<nlohmann::ordered_json>& parts,
                                             const std::vector<std::string>& sources);

}  // namespace delineate::core
