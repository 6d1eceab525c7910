#pragma once
// The work behind the dataset upload dialog's Check, Send and Export, run in its jobs: one case
// after another, each prepared (read, checked, mapped to the server's labels), used and dropped —
// a dataset does not fit in memory. A case that cannot be read is an error finding, not an
// exception: one bad case must not stop a batch.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/upload/CasePreparation.h"
#include "core/upload/DatasetCase.h"

namespace delineate::core::upload {

struct CaseOutcome {
  enum class Result {
    Checked,        // Check only
    Queued,         // Send: added to the upload queue
    Replaced,       // Send: replaces other bytes queued under the same id
    AlreadyQueued,  // Send: the same bytes are queued or delivered already
    Written,        // Export: written to the MSD folder
    Refused,        // Send / Export: the check found errors, nothing sent or written
  };
  std::size_t index = 0;  // into the cases given
  std::string id;
  std::vector<core::upload::LintFinding> findings;
  Result result = Result::Checked;
};

std::vector<CaseOutcome> checkCases(const std::vector<core::upload::DatasetCase>& cases,
                                    const core::upload::PrepareOptions& options,
                                    core::ProgressSink& progress);

// Queues the sendable cases in the upload queue at `queueFolder`; `skip[i]`: leave case i out
// (an earlier check found errors). Throws core::Error naming the file on a full disk; the cases
// queued before stay queued.
std::vector<CaseOutcome> queueCases(const std::vector<core::upload::DatasetCase>& cases,
                                    const std::vector<bool>& skip,
                                    const core::upload::PrepareOptions& options,
                                    const std::filesystem::path& queueFolder,
                                    core::ProgressSink& progress);

// Writes the sendable cases as an MSD dataset in `folder` (named after it).
std::vector<CaseOutcome> exportCases(const std::vector<core::upload::DatasetCase>& cases,
                                     const std::vector<bool>& skip,
                                     const core::upload::PrepareOptions& options,
                                     const std::filesystem::path& folder,
                                     core::ProgressSink& progress);

}  // namespace delineate::core::upload
