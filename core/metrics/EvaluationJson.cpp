#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/io/AtomicFile.h"
#include "core/jobs/Shard.h"
#include "core/metrics/EvaluationReport.h"
#include "core/metrics/JsonNumber.h"

namespace delineate::core {

using Json = nlohmann::ordered_json;

namespace {

Json paths(const std::vector<std::filesystem::path>& files) {
  Json out = Json::array();
  for (const auto& f : files) {
    out.push_back(f.string());
  }
  return out;
}

Json caseJson(const CaseEvaluation& c) {
  Json labels = Json::array();
  for (const LabelEvaluation& l : c.labels) {
    Json label{{"label", l.name},
               {"reference_value", l.referenceValue},
               {"test_value", l.testValue},
               {"note", l.note}};
    for (std::size_t m = 0; m < kEvaluationMetrics.size(); ++m) {
      label[kEvaluationMetrics[m]] = jsonNumber(l.metrics[m]);
    }
    labels.push_back(std::move(label));
  }
  return Json{{"case", c.name},
              {"status", toString(c.status)},
              {"detail", c.detail},
              {"reference", paths(c.reference)},
              {"test", paths(c.test)},
              {"matched_by", c.matchedByName ? "name" : "value"},
              {"resampled", c.resampled},
              {"notes", c.notes},
              {"labels", std::move(labels)}};
}

Json summaryJson(const DatasetEvaluation& evaluation) {
  Json byStatus = Json::object();
  for (const CaseEvaluation& c : evaluation.cases) {
    const char* status = toString(c.status);
    byStatus[status] = byStatus.value(status, 0) + 1;
  }
  Json labels = Json::array();
  for (const LabelSummary& s : evaluation.summary) {
    Json metrics = Json::object();
    for (std::size_t m = 0; m < kEvaluationMetrics.size(); ++m) {
      const SummaryStatistics& st = s.metrics[m];
      metrics[kEvaluationMetrics[m]] = Json{{"n", st.n},
                                            {"mean", jsonNumber(st.mean)},
                                            {"sd", jsonNumber(st.sd)},
                                            {"median", jsonNumber(st.median)},
                                            {"q1", jsonNumber(st.q1)},
                                            {"q3", jsonNumber(st.q3)},
                                            {"iqr", jsonNumber(st.iqr())},
                                            {"infinite", st.infinite},
                                            {"undefined", st.undefined}};
    }
    labels.push_back(Json{{"label", s.name},
                          {"cases", s.cases},
                          {"empty_in_both", s.emptyInBoth},
                          {"metrics", std::move(metrics)}});
  }
  return Json{{"cases", evaluation.cases.size()},
              {"evaluated", evaluation.evaluatedCases()},
              {"by_status", std::move(byStatus)},
              {"labels", std::move(labels)}};
}

}  // namespace

std::string evaluationJson(const DatasetEvaluation& evaluation) {
  Json cases = Json::array();
  for (const CaseEvaluation& c : evaluation.cases) {
    cases.push_back(caseJson(c));
  }
  const DatasetEvaluationOptions& o = evaluation.options;
  Json options{{"reference", evaluation.referenceFolder.string()},
               {"test", evaluation.testFolder.string()},
               {"labels", o.labels},
               {"tolerance_mm", o.toleranceMm},
               {"resample", o.resample}};
  if (o.shardCount > 1) {
    options["shard"] = shardText({o.shardIndex, o.shardCount});
  }
  const Json out{
      {"cases", std::move(cases)}, {"summary", summaryJson(evaluation)}, {"options", options}};
  return out.dump(2) + "\n";
}

void writeEvaluationJson(const DatasetEvaluation& evaluation, const std::filesystem::path& path) {
  writeTextAtomically(path, evaluationJson(evaluation), "the JSON file");
}

}  // namespace delineate::core
