#pragma once
// A dataset evaluation as files: CSV with one row per case and label, JSON with the cases, the
// summary per label and the options. Both written atomically. Formats: docs/metrics.md.
#include <filesystem>
#include <string>

#include "core/metrics/DatasetEvaluation.h"

namespace delineate::core {

// "inf", "-inf", "nan", else the shortest text that reads back as the same double.
std::string metricText(double value);

std::string evaluationCsv(const DatasetEvaluation& evaluation);
std::string evaluationJson(const DatasetEvaluation& evaluation);

// Throw Error(Io) naming the file when it cannot be written; an existing file stays intact.
void writeEvaluationCsv(const DatasetEvaluation& evaluation, const std::filesystem::path& path);
void writeEvaluationJson(const DatasetEvaluation& evaluation, const std::filesystem::path& path);

}  // namespace delineate::core
