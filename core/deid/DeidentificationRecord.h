#pragma once
// The record a de-identification batch leaves in its output folder, deidentification.json: which
// profile and options the folder's files went through, and how many were written and held back.
// A dataset snapshot of the folder (or of one that holds it) reports it with each label map's
// provenance. Format: docs/deidentification.md, "The record in the output folder".
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/deid/DeidOptions.h"

namespace delineate::core::deid {

struct DeidSummary;

// {"format": "delineate-deidentification", "version": 1, "profile", "method", "method_codes",
//  "options", "written", "held_back", "failed", "runs"}. `method` is the profile and each option
// in use, as De-identification Method (0012,0063) says them, joined by "; ". `runs` lists each
// batch's own counts, oldest first; the top-level counts are their sums.
nlohmann::json deidentificationRecord(const DeidOptions& options, const DeidSummary& summary);

// A folder holds files of one set of options only. Throws Error(InvalidInput) naming
// `folder`/deidentification.json when that file is there and is not a de-identification record,
// or records other options than `options` (the earlier files would then be described wrongly).
void checkRecordAllows(const std::filesystem::path& folder, const DeidOptions& options);

// Written atomically as `folder`/deidentification.json, the batch added to the record already
// there (checkRecordAllows() first); Error(Io) naming it when it cannot be.
void writeDeidentificationRecord(const std::filesystem::path& folder, const DeidOptions& options,
                                 const DeidSummary& summary);

// The `method` of a record's text. Throws Error(InvalidInput) naming `source` for text that is
// not such a record.
std::string deidentificationRecordFromJson(const std::string& text, const std::string& source);

}  // namespace delineate::core::deid
