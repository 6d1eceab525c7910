#include "core/metrics/DatasetEvaluation.h"

#include <algorithm>
#include <cctype>

#include "core/Error.h"
#include "core/io/DicomSegReader.h"
#include "core/io/LabelMapFileIO.h"
#include "core/jobs/PrefixedProgress.h"
#include "core/metrics/DatasetPairing.h"

namespace delineate::core {

namespace fs = std::filesystem;

namespace {

bool isDicomSeg(const fs::path& file) {
  std::string ext = file.extension().string();
  for (char& c : ext) {
    c = char(std::tolower(static_cast<unsigned char>(c)));
  }
  return ext == ".dcm";
}

// Whether the file's segment names are its own (a DICOM SEG, or a segment JSON beside it).
bool hasSegmentTable(const fs::path& file) {
  return isDicomSeg(file) || fs::exists(segmentTablePathFor(file));
}

// A label file; a DICOM SEG on the grid its frames imply (no source series needed).
LabelMap readLabelFile(const fs::path& file, ProgressSink& progress,
                       std::vector<std::string>& notes) {
  if (!isDicomSeg(file)) {
    LabelMap labels = readLabelMapFiles(file);
    progress.report(1.0, "Read " + file.filename().string());
    return labels;
  }
  std::vector<std::string> warnings;
  LabelMap labels = readDicomSeg(file, dicomSegGeometry(file), progress, &warnings);
  for (const std::string& w : warnings) {
    notes.push_back(file.filename().string() + ": " + w);
  }
  return labels;
}

std::string fileList(const std::vector<fs::path>& files) {
  std::string out;
  for (const fs::path& f : files) {
    out += (out.empty() ? "" : ", ") + f.filename().string();
  }
  return out;
}

// Reads, checks and measures one pair of files; per-case problems end up in `c`.
void evaluateFiles(CaseEvaluation& c, const DatasetEvaluationOptions& options,
                   ProgressSink& progress) {
  SubProgress readingReference(progress, 0.0, 0.15);
  const LabelMap reference = readLabelFile(c.reference[0], readingReference, c.notes);
  SubProgress readingTest(progress, 0.15, 0.3);
  LabelMap test = readLabelFile(c.test[0], readingTest, c.notes);
  const std::string difference = test.geometry().differenceFrom(reference.geometry());
  if (!difference.empty()) {
    if (!options.resample) {
      c.status = CaseStatus::GridDiffers;
      c.detail = "test vs reference: " + difference;
      return;
    }
    test = resampleNearest(test, reference.geometry());
    c.resampled = true;
    c.notes.push_back(
        "test resampled onto the reference grid (nearest neighbour); test vs "
        "reference: " +
        difference);
  }
  PairEvaluationOptions pairOptions;
  pairOptions.labels = options.labels;
  pairOptions.toleranceMm = options.toleranceMm;
  pairOptions.referenceHasTable = hasSegmentTable(c.reference[0]);
  pairOptions.testHasTable = hasSegmentTable(c.test[0]);
  SubProgress comparing(progress, 0.3, 1.0);
  PairEvaluation pair = evaluatePair(reference, test, pairOptions, comparing);
  c.matchedByName = pair.matchedByName;
  c.notes.insert(c.notes.end(), pair.notes.begin(), pair.notes.end());
  c.labels = std::move(pair.labels);
}

CaseEvaluation evaluateCase(const CasePair& pair, const DatasetEvaluationOptions& options,
                            ProgressSink& progress) {
  CaseEvaluation c;
  c.name = pair.name;
  c.reference = pair.reference;
  c.test = pair.test;
  if (pair.reference.empty()) {
    c.status = CaseStatus::MissingReference;
    c.detail = "no reference file for " + fileList(pair.test);
    return c;
  }
  if (pair.test.empty()) {
    c.status = CaseStatus::MissingTest;
    c.detail = "no test file for " + fileList(pair.reference);
    return c;
  }
  if (pair.reference.size() > 1 || pair.test.size() > 1) {
    c.status = CaseStatus::Unreadable;
    c.detail = "several files for one case: " +
               fileList(pair.reference.size() > 1 ? pair.reference : pair.test);
    return c;
  }
  try {
    evaluateFiles(c, options, progress);
  } catch (const CancelledError&) {
    throw;
  } catch (const std::exception& e) {
    c.status = CaseStatus::Unreadable;
    c.detail = e.what();
    c.labels.clear();
  }
  return c;
}

}  // namespace

const char* toString(CaseStatus status) {
  switch (status) {
    case CaseStatus::Ok:
      return "ok";
    case CaseStatus::MissingReference:
      return "missing reference";
    case CaseStatus::MissingTest:
      return "missing test";
    case CaseStatus::GridDiffers:
      return "grid differs";
    case CaseStatus::Unreadable:
      return "unreadable";
  }
  return "unknown";
}

std::string CaseEvaluation::statusText() const {
  return detail.empty() ? toString(status) : std::string(toString(status)) + ": " + detail;
}

std::size_t DatasetEvaluation::evaluatedCases() const {
  return std::size_t(std::count_if(cases.begin(), cases.end(), [](const CaseEvaluation& c) {
    return c.status == CaseStatus::Ok;
  }));
}

std::vector<LabelSummary> summarizeCases(const std::vector<CaseEvaluation>& cases) {
  std::vector<std::string> names;
  for (const CaseEvaluation& c : cases) {
    for (const LabelEvaluation& l : c.labels) {
      if (c.status == CaseStatus::Ok &&
          std::find(names.begin(), names.end(), l.name) == names.end()) {
        names.push_back(l.name);
      }
    }
  }
  std::vector<LabelSummary> out;
  for (const std::string& name : names) {
    LabelSummary s;
    s.name = name;
    std::array<std::vector<double>, kEvaluationMetrics.size()> values;
    for (const CaseEvaluation& c : cases) {
      for (const LabelEvaluation& l : c.labels) {
        if (c.status != CaseStatus::Ok || l.name != name) {
          continue;
        }
        ++s.cases;
        if (l.inNeither) {
          ++s.emptyInBoth;
          continue;
        }
        for (std::size_t m = 0; m < values.size(); ++m) {
          values[m].push_back(l.metrics[m]);
        }
      }
    }
    for (std::size_t m = 0; m < values.size(); ++m) {
      s.metrics[m] = summarize(std::move(values[m]));
    }
    out.push_back(std::move(s));
  }
  return out;
}

DatasetEvaluation evaluateDataset(const fs::path& referenceFolder, const fs::path& testFolder,
                                  const DatasetEvaluationOptions& options, ProgressSink& progress) {
  DatasetEvaluation result;
  result.referenceFolder = referenceFolder;
  result.testFolder = testFolder;
  result.options = options;
  const std::vector<CasePair> pairs = pairCases(referenceFolder, testFolder);
  const double n = double(std::max<std::size_t>(pairs.size(), 1));
  const std::size_t shards = std::max<std::size_t>(options.shardCount, 1);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i % shards != options.shardIndex) {
      continue;
    }
    progress.throwIfCancelled();
    const std::string prefix = "case " + std::to_string(i + 1) + "/" +
                               std::to_string(pairs.size()) + " " + pairs[i].name + ": ";
    PrefixedProgress caseProgress(progress, double(i) / n, double(i + 1) / n, prefix);
    caseProgress.report(0.0, "start");
    result.cases.push_back(evaluateCase(pairs[i], options, caseProgress));
  }
  progress.throwIfCancelled();
  result.summary = summarizeCases(result.cases);
  progress.report(1.0, "Evaluated " + std::to_string(pairs.size()) + " cases");
  return result;
}

}  // namespace delineate::core
