#pragma once
// De-identifying files for upload: one file into an output folder, or a whole folder (the
// `delineate-cli deid` command). DICOM output mirrors the study structure under names that carry
// no identifier: OUT/<patient pseudonym>/<new Study UID>/<new Series UID>/<new SOP UID>.dcm.
// NIfTI output is OUT/DLN-<16 hex digits>.nii[.gz]. Files that must not leave the workstation
// are held back and reported, never written.
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/deid/DeidOptions.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::core::deid {

class ReidentificationMap;

struct DeidResult {
  enum class Status {
    Written,   // `output` holds the de-identified copy
    HeldBack,  // not written: `reason` says why (burned-in text, encapsulated document, ...)
    Failed,    // not written: `reason` is the error (unreadable, truncated DICOM or NIfTI)
    Skipped,   // not an image (text, JSON, hidden files), the map itself, a duplicate input
  };
  Status status = Status::Failed;
  std::filesystem::path input;
  std::filesystem::path output;
  std::string reason;
};

const char* toString(DeidResult::Status status);

// De-identifies the DICOM or NIfTI file `input` into `outDir` (created when missing). Errors
// about the file end in a Failed result naming it, not in an exception; adds to `map` but does
// not save it (call map.save() when done). Throws Error(InvalidInput) when `map` would be
// written inside `outDir`.
DeidResult deidentifyFile(const std::filesystem::path& input, const std::filesystem::path& outDir,
                          const DeidOptions& options, ReidentificationMap& map);

struct DeidSummary {
  std::vector<DeidResult> results;  // in input order (sorted paths)
  std::size_t count(DeidResult::Status status) const;
  bool anyFailed() const { return count(DeidResult::Status::Failed) > 0; }
  // {"written": [{"input", "output"}], "heldBack": [{"input", "reason"}], "failed": [...],
  //  "skipped": [...], "counts": {...}}
  nlohmann::json toJson() const;
};

// De-identifies every file under `input` (a folder, searched recursively, or one file) into
// `outDir`, then saves `map` and leaves the record of the run in `outDir` (deidentification.json,
// core/deid/DeidentificationRecord.h). One bad file does not stop the batch. Reports progress per
// file and throws CancelledError when cancelled (the map is saved first, output written so far
// stays). Throws Error naming the path when `input` does not exist or `map` lies inside `outDir`.
DeidSummary deidentifyBatch(const std::filesystem::path& input, const std::filesystem::path& outDir,
                            const DeidOptions& options, ReidentificationMap& map,
                            ProgressSink& progress);

}  // namespace delineate::core::deid
