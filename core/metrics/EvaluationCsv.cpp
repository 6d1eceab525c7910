#include <charconv>
#include <cmath>
#include <fstream>

#include "core/Error.h"
#include "core/io/AtomicFile.h"
#include "core/metrics/EvaluationReport.h"

namespace delineate::core {

namespace {

// RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled.
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) {
    return text;
  }
  std::string out = "\"";
  for (const char c : text) {
    out += c == '"' ? "\"\"" : std::string(1, c);
  }
  return out + "\"";
}

std::string joinedNotes(const CaseEvaluation& c, const std::string& labelNote) {
  std::string out = labelNote;
  for (const std::string& n : c.notes) {
    out += (out.empty() ? "" : "; ") + n;
  }
  return out;
}

}  // namespace

std::string metricText(double value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string evaluationCsv(const DatasetEvaluation& evaluation) {
  std::string out = "case,label,status";
  for (const char* metric : kEvaluationMetrics) {
    out += std::string(",") + metric;
  }
  out += ",note\n";
  for (const CaseEvaluation& c : evaluation.cases) {
    if (c.labels.empty()) {
      out += field(c.name) + ",," + field(c.statusText()) +
             std::string(kEvaluationMetrics.size(), ',') + "," + field(joinedNotes(c, "")) + "\n";
      continue;
    }
    for (const LabelEvaluation& l : c.labels) {
      out += field(c.name) + "," + field(l.name) + "," + field(c.statusText());
      for (const double v : l.metrics) {
        out += "," + metricText(v);
      }
      out += "," + field(joinedNotes(c, l.note)) + "\n";
    }
  }
  return out;
}

void writeEvaluationCsv(const DatasetEvaluation& evaluation, const std::filesystem::path& path) {
  const std::filesystem::path tmp = temporarySiblingPath(path);
  {
    std::ofstream f(tmp, std::ios::binary);
    f << evaluationCsv(evaluation);
    if (!f) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw Error(ErrorKind::Io, path.string(), "cannot write the CSV file");
    }
  }
  commitAtomically(tmp, path);
}

}  // namespace delineate::core
