#include "core/upload/DatasetCaseJobs.h"

#include <functional>

#include "core/Error.h"
#include "core/upload/CaseQueueing.h"
#include "core/upload/MsdDatasetWriter.h"
#include "core/upload/UploadQueue.h"

namespace delineate::core::upload {

namespace up = core::upload;

namespace {

up::PreparedCase prepareOrReport(const up::DatasetCase& picked, const up::PrepareOptions& options,
                                 core::ProgressSink& progress) {
  try {
    return up::prepareCase(picked, options, progress);
  } catch (const core::CancelledError&) {
    throw;
  } catch (const std::exception& e) {
    up::PreparedCase failed;
    failed.source = picked.image.string();
    failed.findings.push_back({up::LintFinding::Severity::Error, e.what()});
    return failed;
  }
}

// Prepares each case not skipped, with its share of the progress, and hands it to `use`, which
// says what became of it when it is sendable.
std::vector<CaseOutcome> forEachCase(
    const std::vector<up::DatasetCase>& cases, const std::vector<bool>& skip, const char* verb,
    const up::PrepareOptions& options, core::ProgressSink& progress,
    const std::function<CaseOutcome::Result(const up::PreparedCase&)>& use) {
  std::vector<CaseOutcome> out;
  const double total = static_cast<double>(cases.size());
  for (std::size_t n = 0; n < cases.size(); ++n) {
    if (n < skip.size() && skip[n]) {
      continue;
    }
    progress.report(double(n) / total,
                    std::string(verb) + " " + cases[n].image.filename().string() + " (" +
                        std::to_string(n + 1) + " of " + std::to_string(cases.size()) + ")");
    core::SubProgress one(progress, double(n) / total, double(n + 1) / total);
    const up::PreparedCase c = prepareOrReport(cases[n], options, one);
    CaseOutcome o{n, c.id, c.findings, CaseOutcome::Result::Refused};
    if (c.sendable()) {
      o.result = use(c);
    }
    out.push_back(std::move(o));
  }
  progress.report(1.0, "done");
  return out;
}

}  // namespace

std::vector<CaseOutcome> checkCases(const std::vector<up::DatasetCase>& cases,
                                    const up::PrepareOptions& options,
                                    core::ProgressSink& progress) {
  std::vector<CaseOutcome> out =
      forEachCase(cases, {}, "checking", options, progress,
                  [](const up::PreparedCase&) { return CaseOutcome::Result::Checked; });
  for (CaseOutcome& o : out) {
    o.result = CaseOutcome::Result::Checked;
  }
  return out;
}

std::vector<CaseOutcome> queueCases(const std::vector<up::DatasetCase>& cases,
                                    const std::vector<bool>& skip,
                                    const up::PrepareOptions& options,
                                    const std::filesystem::path& queueFolder,
                                    core::ProgressSink& progress) {
  up::UploadQueue queue(queueFolder);
  return forEachCase(cases, skip, "queueing", options, progress, [&](const up::PreparedCase& c) {
    switch (up::enqueuePrepared(queue, c)) {
      case up::EnqueueOutcome::Added:
        return CaseOutcome::Result::Queued;
      case up::EnqueueOutcome::Replaced:
        return CaseOutcome::Result::Replaced;
      case up::EnqueueOutcome::Unchanged:
        break;
    }
    return CaseOutcome::Result::AlreadyQueued;
  });
}

std::vector<CaseOutcome> exportCases(const std::vector<up::DatasetCase>& cases,
                                     const std::vector<bool>& skip,
                                     const up::PrepareOptions& options,
                                     const std::filesystem::path& folder,
                                     core::ProgressSink& progress) {
  up::MsdDatasetWriter writer(folder, folder.filename().string());
  return forEachCase(cases, skip, "writing", options, progress, [&](const up::PreparedCase& c) {
    writer.add(c);
    return CaseOutcome::Result::Written;
  });
}

}  // namespace delineate::core::upload
