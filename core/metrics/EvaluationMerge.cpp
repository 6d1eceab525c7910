#include "core/metrics/EvaluationMerge.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/jobs/Shard.h"

namespace delineate::core {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void bad(const fs::path& file, const std::string& what) {
  throw Error(ErrorKind::InvalidInput, file.string(), "not an evaluation report: " + what);
}

// A metric as written: a number, or "inf", "-inf", "nan".
double metricOf(const json& v, const fs::path& file) {
  if (v.is_number()) {
    return v.get<double>();
  }
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "inf") {
      return std::numeric_limits<double>::infinity();
    }
    if (s == "-inf") {
      return -std::numeric_limits<double>::infinity();
    }
    if (s == "nan") {
      return std::numeric_limits<double>::quiet_NaN();
    }
  }
  bad(file, "a metric is " + v.dump());
}

CaseStatus statusOf(const std::string& text, const fs::path& file) {
  for (const CaseStatus s : {CaseStatus::Ok, CaseStatus::MissingReference, CaseStatus::MissingTest,
                             CaseStatus::GridDiffers, CaseStatus::Unreadable}) {
    if (text == toString(s)) {
      return s;
    }
  }
  bad(file, "unknown case status '" + text + "'");
}

std::vector<fs::path> pathsOf(const json& list) {
  std::vector<fs::path> out;
  for (const json& p : list) {
    out.emplace_back(p.get<std::string>());
  }
  return out;
}

CaseEvaluation caseOf(const json& c, const fs::path& file) {
  CaseEvaluation out;
  out.name = c.at("case").get<std::string>();
  out.status = statusOf(c.at("status").get<std::string>(), file);
  out.detail = c.value("detail", "");
  out.reference = pathsOf(c.value("reference", json::array()));
  out.test = pathsOf(c.value("test", json::array()));
  out.matchedByName = c.value("matched_by", "") == "name";
  out.resampled = c.value("resampled", false);
  out.notes = c.value("notes", std::vector<std::string>{});
  for (const json& l : c.value("labels", json::array())) {
    LabelEvaluation e;
    e.name = l.at("label").get<std::string>();
    e.referenceValue = l.value("reference_value", std::uint16_t(0));
    e.testValue = l.value("test_value", std::uint16_t(0));
    e.note = l.value("note", "");
    e.inNeither = e.note == "empty in both" || e.note == "in neither label scheme";
    for (std::size_t m = 0; m < kEvaluationMetrics.size(); ++m) {
      e.metrics[m] = metricOf(l.at(kEvaluationMetrics[m]), file);
    }
    out.labels.push_back(std::move(e));
  }
  return out;
}

}  // namespace

DatasetEvaluation readEvaluationJson(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(ErrorKind::Io, path.string(), "cannot be read");
  }
  const json doc = json::parse(in, nullptr, false);
  if (!doc.is_object() || !doc.contains("cases") || !doc.contains("options") ||
      !doc["cases"].is_array() || !doc["options"].is_object()) {
    bad(path, "no cases and options");
  }
  DatasetEvaluation out;
  try {
    const json& o = doc["options"];
    out.referenceFolder = o.value("reference", "");
    out.testFolder = o.value("test", "");
    out.options.labels = o.value("labels", std::vector<std::string>{});
    out.options.toleranceMm = o.value("tolerance_mm", 1.0);
    out.options.resample = o.value("resample", false);
    if (o.contains("shard")) {
      const std::string text = o["shard"].get<std::string>();
      const std::optional<Shard> shard = parseShard(text);
      if (!shard) {
        bad(path, "shard '" + text + "' is not K/N");
      }
      out.options.shardIndex = shard->index;
      out.options.shardCount = shard->count;
    }
    for (const json& c : doc["cases"]) {
      out.cases.push_back(caseOf(c, path));
    }
  } catch (const json::exception& e) {
    bad(path, e.what());
  }
  out.summary = summarizeCases(out.cases);
  return out;
}

DatasetEvaluation mergeEvaluations(std::vector<DatasetEvaluation> shards) {
  if (shards.empty()) {
    throw Error(ErrorKind::InvalidInput, {}, "no shards to merge");
  }
  DatasetEvaluation out;
  out.referenceFolder = shards.front().referenceFolder;
  out.testFolder = shards.front().testFolder;
  out.options = shards.front().options;
  std::vector<Shard> split;
  for (const DatasetEvaluation& s : shards) {
    const DatasetEvaluationOptions& o = s.options;
    if (s.referenceFolder != out.referenceFolder || s.testFolder != out.testFolder ||
        o.labels != out.options.labels || o.toleranceMm != out.options.toleranceMm ||
        o.resample != out.options.resample) {
      throw Error(ErrorKind::InvalidInput, {},
                  "the shards are of different evaluations (folders, labels, tolerance or "
                  "resampling differ)");
    }
    split.push_back({o.shardIndex, o.shardCount});
  }
  if (const std::string problem = shardSetProblem(split); !problem.empty()) {
    throw Error(ErrorKind::InvalidInput, {}, problem);
  }
  for (DatasetEvaluation& s : shards) {
    for (CaseEvaluation& c : s.cases) {
      out.cases.push_back(std::move(c));
    }
  }
  // The order of one process: cases by name (pairCases).
  std::sort(out.cases.begin(), out.cases.end(),
            [](const CaseEvaluation& a, const CaseEvaluation& b) { return a.name < b.name; });
  for (std::size_t i = 1; i < out.cases.size(); ++i) {
    if (out.cases[i].name == out.cases[i - 1].name) {
      throw Error(ErrorKind::InvalidInput, {}, "case " + out.cases[i].name + " is in two shards");
    }
  }
  out.options.shardIndex = 0;
  out.options.shardCount = 1;
  out.summary = summarizeCases(out.cases);
  return out;
}

}  // namespace delineate::core
