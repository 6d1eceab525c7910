// delineate-cli consensus: several readers' label maps of one image merged into one (STAPLE or
// majority vote), with each reader's sensitivity and specificity per label (docs/metrics.md,
// "Consensus of readers"); or of a whole dataset, one folder per reader, in shards if need be
// ("Consensus over a dataset").
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "CliProgress.h"
#include "Commands.h"
#include "LabelMapArgs.h"
#include "core/Error.h"
#include "core/io/LabelMapFileIO.h"
#include "core/jobs/Shard.h"
#include "core/metrics/Consensus.h"
#include "core/metrics/DatasetConsensus.h"

namespace delineate::cli {

namespace {

constexpr const char* kConsensusUsage =
    "usage: delineate-cli consensus [--method staple|vote] [--margin N] MAP1 MAP2 [MAP...]\n"
    "                               --out OUT [--json STATS.json]\n"
    "  merges the readers' label maps (.nii.gz .nii .nrrd .mha, one grid) into OUT with its\n"
    "  segment table: STAPLE (default; per label, inside the box of every reader's labels grown\n"
    "  by --margin voxels, default 2) or a majority vote (ties left 0). Prints, and writes to\n"
    "  --json, each reader's sensitivity and specificity per label against the consensus.\n"
    "       delineate-cli consensus [--method staple|vote] [--margin N] --dataset DIR1 DIR2 "
    "[DIR...]\n"
    "                               --out OUT_DIR --json REPORT.json [--shard K/N]\n"
    "       delineate-cli consensus --merge PART_1.json ... PART_N.json --json REPORT.json\n"
    "  a dataset: one folder of label maps per reader, cases paired by file name; each case's\n"
    "  consensus goes to OUT_DIR/<case>.nii.gz, the per-case statistics and their summary to\n"
    "  REPORT.json. Shard K (1..N) does the cases at positions K, K+N, ... of the name order;\n"
    "  --merge puts the shards' reports together into exactly the report of one process.\n";

int writeReport(const nlohmann::ordered_json& report, const std::string& json) {
  std::ofstream file(json, std::ios::binary | std::ios::trunc);
  file << report.dump(2) << "\n";
  if (!file.flush()) {
    throw core::Error(core::ErrorKind::Io, json, "cannot write the report");
  }
  std::size_t problems = 0;
  for (const auto& c : report["cases"]) {
    if (c.contains("problem")) {
      ++problems;
      std::fprintf(stderr, "%s: %s\n", c["case"].get<std::string>().c_str(),
                   c["problem"].get<std::string>().c_str());
    }
  }
  std::printf("%zu cases, %zu with a problem; report written to %s\n", report["cases"].size(),
              problems, json.c_str());
  return 0;
}

int runDatasetConsensus(const core::ConsensusOptions& consensus,
                        const std::vector<std::string>& folders,
                        const std::vector<std::string>& merge, const std::string& out,
                        const std::string& json, const std::string& shardText) {
  if (json.empty() || (merge.empty() && (folders.size() < 2 || out.empty())) ||
      (!merge.empty() && (!folders.empty() || !shardText.empty())) || consensus.margin < 0) {
    std::fputs(kConsensusUsage, stderr);
    return 2;
  }
  if (!merge.empty()) {
    std::vector<nlohmann::ordered_json> parts;
    for (const std::string& file : merge) {
      std::ifstream in(file, std::ios::binary);
      nlohmann::ordered_json part = nlohmann::ordered_json::parse(in, nullptr, false);
      if (!in.is_open() || part.is_discarded()) {
        throw core::Error(core::ErrorKind::InvalidInput, file, "cannot read it as JSON");
      }
      parts.push_back(std::move(part));
    }
    return writeReport(core::mergeDatasetConsensus(parts, merge), json);
  }
  const std::optional<core::Shard> shard =
      shardText.empty() ? std::optional<core::Shard>(core::Shard{}) : core::parseShard(shardText);
  if (!shard) {
    std::fprintf(stderr, "delineate-cli consensus: --shard wants K/N with 1 <= K <= N, not %s\n",
                 shardText.c_str());
    return 2;
  }
  core::DatasetConsensusOptions options;
  options.consensus = consensus;
  options.out = out;
  options.shardIndex = shard->index;
  options.shardCount = shard->count;
  std::vector<std::filesystem::path> paths(folders.begin(), folders.end());
  CliProgress progress;
  return writeReport(core::datasetConsensus(paths, options, progress), json);
}

}  // namespace

int runConsensus(const Args& args) {
  std::string method = "staple", out, json, margin = "2", shard;
  std::vector<std::string> maps, folders, merge;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool value = i + 1 < args.size();
    if (args[i] == "--method" && value) {
      method = args[++i];
    } else if (args[i] == "--out" && value) {
      out = args[++i];
    } else if (args[i] == "--json" && value) {
      json = args[++i];
    } else if (args[i] == "--margin" && value) {
      margin = args[++i];
    } else if (args[i] == "--shard" && value) {
      shard = args[++i];
    } else if (args[i] == "--dataset" || args[i] == "--merge") {
      auto& list = args[i] == "--dataset" ? folders : merge;
      while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
        list.push_back(args[++i]);
      }
    } else if (args[i].rfind("--", 0) == 0) {
      std::fprintf(stderr, "delineate-cli consensus: unknown option or missing value: %s\n%s",
                   args[i].c_str(), kConsensusUsage);
      return 2;
    } else {
      maps.push_back(args[i]);
    }
  }
  core::ConsensusOptions options;
  if (method == "staple" || method == "vote") {
    options.method =
        method == "staple" ? core::ConsensusMethod::Staple : core::ConsensusMethod::Vote;
  } else {
    std::fprintf(stderr, "delineate-cli consensus: --method is staple or vote, not '%s'\n",
                 method.c_str());
    return 2;
  }
  try {
    options.margin = std::stoi(margin);
  } catch (const std::exception&) {
    options.margin = -1;
  }
  if (!merge.empty() || !folders.empty()) {
    return runDatasetConsensus(options, folders, merge, out, json, shard);
  }
  if (options.margin < 0 || maps.size() < 2 || out.empty()) {
    std::fputs(kConsensusUsage, stderr);
    return 2;
  }
  if (!json.empty() && std::filesystem::path(json) == core::segmentTablePathFor(out)) {
    std::fprintf(stderr,
                 "delineate-cli consensus: %s is where the segment table of %s goes; give "
                 "--json another name\n",
                 json.c_str(), out.c_str());
    return 2;
  }
  CliProgress progress;
  const LabelMapArgs readers = readLabelMapArgs(maps);
  const core::ConsensusResult result = core::computeConsensus(readers.pointers, options, progress);
  core::writeLabelMapFiles(*result.consensus, out);
  const nlohmann::json stats = result.toJson(maps, options.method);
  if (!json.empty()) {
    std::ofstream file(json, std::ios::binary | std::ios::trunc);
    file << stats.dump(2) << "\n";
    if (!file) {
      throw core::Error(core::ErrorKind::Io, json, "cannot write the statistics");
    }
  }
  std::printf("%s consensus of %zu readers written to %s\n", core::toString(options.method),
              maps.size(), out.c_str());
  std::printf("%-40s %6s %12s %12s\n", "reader", "label", "sensitivity", "specificity");
  for (std::size_t r = 0; r < result.readers.size(); ++r) {
    for (const core::ReaderLabelAgreement& a : result.readers[r]) {
      std::printf("%-40s %6u %12.4f %12.4f\n", maps[r].c_str(), unsigned(a.label), a.sensitivity,
                  a.specificity);
    }
  }
  if (options.method == core::ConsensusMethod::Vote && result.undecided > 0) {
    std::printf("%zu voxels tied between labels were left 0\n", result.undecided);
  }
  return 0;
}

}  // namespace delineate::cli
