// delineate-cli eval: a test dataset against a reference dataset, per case and label, with a
// summary per label; CSV and JSON reports (docs/metrics.md, "Dataset evaluation").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "CliProgress.h"
#include "Commands.h"
#include "LabelMapArgs.h"
#include "core/Error.h"
#include "core/jobs/Shard.h"
#include "core/metrics/DatasetEvaluation.h"
#include "core/metrics/EvaluationMerge.h"
#include "core/metrics/EvaluationReport.h"
#include "core/metrics/ReaderAgreement.h"

namespace delineate::cli {

namespace {

constexpr const char* kEvalUsage =
    "usage: delineate-cli eval --ref DIR --test DIR [--labels NAME,NAME...] [--tolerance MM]\n"
    "                          [--resample] [--csv OUT.csv] [--json OUT.json]\n"
    "  pairs the label files (.nii.gz .nii .nrrd .mha, DICOM SEG .dcm) of both folders by file\n"
    "  name and measures every label: Dice, Jaccard, sensitivity, precision, volumes, HD, HD95,\n"
    "  ASSD, surface Dice at --tolerance (default 1 mm). A test map on another grid is refused\n"
    "  with the exact difference, or resampled onto the reference grid with --resample.\n"
    "  Exit code 0 when at least one case was evaluated, 1 when none, 2 on a usage error.\n"
    "       delineate-cli eval --ref DIR --test DIR --shard K/N --json PART_K.json [...]\n"
    "       delineate-cli eval --merge PART_1.json ... PART_N.json [--csv OUT.csv] [--json "
    "OUT.json]\n"
    "  a dataset split over N processes or machines: shard K (1..N) evaluates the cases at\n"
    "  positions K, K+N, ... of the name order; --merge puts the shards' JSON reports together\n"
    "  into exactly the report of one process (refused when a shard is missing or doubled).\n"
    "       delineate-cli eval --readers MAP1 MAP2 [MAP...] [--json OUT.json]\n"
    "  how far readers agree: per label the readers x readers matrices of Dice and HD95.\n";

struct EvalArgs {
  std::string reference, test, labels, tolerance, csv, json, shard;
  std::vector<std::string> merge;  // shard reports to merge
  bool resample = false;
};

bool parse(const Args& args, EvalArgs& a) {
  const std::pair<const char*, std::string*> options[] = {
      {"--ref", &a.reference},       {"--test", &a.test}, {"--labels", &a.labels},
      {"--tolerance", &a.tolerance}, {"--csv", &a.csv},   {"--json", &a.json},
      {"--shard", &a.shard}};
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--resample") {
      a.resample = true;
      continue;
    }
    if (args[i] == "--merge") {
      while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
        a.merge.push_back(args[++i]);
      }
      if (a.merge.empty()) {
        std::fprintf(stderr, "delineate-cli eval: --merge needs the shards' JSON reports\n");
        return false;
      }
      continue;
    }
    bool known = false;
    for (const auto& [name, value] : options) {
      if (args[i] == name && i + 1 < args.size()) {
        *value = args[++i];
        known = true;
        break;
      }
    }
    if (!known) {
      std::fprintf(stderr, "delineate-cli eval: unknown option or missing value: %s\n",
                   args[i].c_str());
      return false;
    }
  }
  if (!a.merge.empty()) {
    return a.reference.empty() && a.test.empty() && a.shard.empty();
  }
  return !a.reference.empty() && !a.test.empty();
}

std::vector<std::string> splitNames(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) {
      out.push_back(text.substr(start, comma - start));
    }
    start = comma + 1;
  }
  return out;
}

std::string cell(const core::SummaryStatistics& s) {
  if (s.n == 0) {
    return "-";
  }
  char buffer[64];
  if (s.n == 1) {
    std::snprintf(buffer, sizeof buffer, "%.3f", s.mean);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3f ± %.3f", s.mean, s.sd);
  }
  return buffer;
}

void printSummary(const core::DatasetEvaluation& e) {
  std::printf("%zu cases, %zu evaluated\n", e.cases.size(), e.evaluatedCases());
  for (const core::CaseEvaluation& c : e.cases) {
    if (c.status != core::CaseStatus::Ok) {
      std::printf("  %s: %s\n", c.name.c_str(), c.statusText().c_str());
    }
  }
  if (e.summary.empty()) {
    return;
  }
  std::printf("%-24s %5s %-17s %-17s %-17s %-17s\n", "label", "n", "dice", "hd95_mm", "assd_mm",
              "surface_dice");
  for (const core::LabelSummary& s : e.summary) {
    std::printf("%-24.24s %5zu %-17s %-17s %-17s %-17s", s.name.c_str(), s.cases,
                cell(s.metric(core::Metric::Dice)).c_str(),
                cell(s.metric(core::Metric::Hd95Mm)).c_str(),
                cell(s.metric(core::Metric::AssdMm)).c_str(),
                cell(s.metric(core::Metric::SurfaceDice)).c_str());
    if (s.metric(core::Metric::Hd95Mm).infinite > 0) {
      std::printf(" (%zu infinite HD95)", s.metric(core::Metric::Hd95Mm).infinite);
    }
    std::printf("\n");
  }
}

std::string matrixCell(double v) {
  char buffer[32];
  if (std::isnan(v)) {
    return "-";
  }
  if (std::isinf(v)) {
    return "inf";
  }
  std::snprintf(buffer, sizeof buffer, "%.3f", v);
  return buffer;
}

void printMatrix(const char* title, const std::vector<std::vector<double>>& m) {
  std::printf("  %s\n  %6s", title, "");
  for (std::size_t j = 0; j < m.size(); ++j) {
    std::printf(" %8s", ("R" + std::to_string(j + 1)).c_str());
  }
  std::printf("\n");
  for (std::size_t i = 0; i < m.size(); ++i) {
    std::printf("  %6s", ("R" + std::to_string(i + 1)).c_str());
    for (double v : m[i]) {
      std::printf(" %8s", matrixCell(v).c_str());
    }
    std::printf("\n");
  }
}

int runReaderAgreement(const Args& args) {
  std::vector<std::string> maps;
  std::string json;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--readers") {
      continue;
    }
    if (args[i] == "--json" && i + 1 < args.size()) {
      json = args[++i];
    } else if (args[i].rfind("--", 0) == 0) {
      std::fprintf(stderr, "delineate-cli eval --readers: unknown option or missing value: %s\n",
                   args[i].c_str());
      return 2;
    } else {
      maps.push_back(args[i]);
    }
  }
  if (maps.size() < 2) {
    std::fputs(kEvalUsage, stderr);
    return 2;
  }
  const LabelMapArgs readers = readLabelMapArgs(maps);
  CliProgress progress;
  const core::ReaderAgreement agreement = core::readerAgreement(readers.pointers, maps, progress);
  if (!json.empty()) {
    std::ofstream file(json, std::ios::binary | std::ios::trunc);
    file << agreement.toJson().dump(2) << "\n";
    if (!file) {
      throw core::Error(core::ErrorKind::Io, json, "cannot write the agreement");
    }
  }
  for (std::size_t i = 0; i < maps.size(); ++i) {
    std::printf("R%zu = %s\n", i + 1, maps[i].c_str());
  }
  for (const core::ReaderMatrices& m : agreement.labels) {
    std::printf("\n%s (mean Dice between readers %s)\n", m.label.c_str(),
                matrixCell(m.meanPairDice()).c_str());
    printMatrix("Dice", m.dice);
    printMatrix("HD95 (mm)", m.hd95);
  }
  return 0;
}

}  // namespace

int runEval(const Args& args) {
  if (std::find(args.begin(), args.end(), "--readers") != args.end()) {
    return runReaderAgreement(args);
  }
  EvalArgs a;
  if (!parse(args, a)) {
    std::fputs(kEvalUsage, stderr);
    return 2;
  }
  core::DatasetEvaluationOptions options;
  options.labels = splitNames(a.labels);
  options.resample = a.resample;
  if (!a.tolerance.empty()) {
    char* end = nullptr;
    options.toleranceMm = std::strtod(a.tolerance.c_str(), &end);
    if (end == a.tolerance.c_str() || *end != '\0' || !(options.toleranceMm >= 0)) {
      std::fprintf(stderr, "delineate-cli eval: --tolerance wants a number of mm >= 0, not %s\n",
                   a.tolerance.c_str());
      return 2;
    }
  }
  const std::optional<core::Shard> shard =
      a.shard.empty() ? std::optional<core::Shard>(core::Shard{}) : core::parseShard(a.shard);
  if (shard) {
    options.shardIndex = shard->index;
    options.shardCount = shard->count;
  } else {
    std::fprintf(stderr, "delineate-cli eval: --shard wants K/N with 1 <= K <= N, not %s\n",
                 a.shard.c_str());
    return 2;
  }
  if (options.shardCount > 1 && a.json.empty()) {
    std::fprintf(stderr, "delineate-cli eval: --shard needs --json (the report to merge)\n");
    return 2;
  }
  CliProgress progress;
  core::DatasetEvaluation evaluation;
  if (!a.merge.empty()) {
    std::vector<core::DatasetEvaluation> shards;
    for (const std::string& file : a.merge) {
      shards.push_back(core::readEvaluationJson(file));
    }
    evaluation = core::mergeEvaluations(std::move(shards));
  } else {
    evaluation = core::evaluateDataset(a.reference, a.test, options, progress);
  }
  if (!a.csv.empty()) {
    core::writeEvaluationCsv(evaluation, a.csv);
  }
  if (!a.json.empty()) {
    core::writeEvaluationJson(evaluation, a.json);
  }
  printSummary(evaluation);
  return evaluation.evaluatedCases() > 0 ? 0 : 1;
}

}  // namespace delineate::cli
