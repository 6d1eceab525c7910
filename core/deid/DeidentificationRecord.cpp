#include "core/deid/DeidentificationRecord.h"

#include "core/Error.h"
#include "core/deid/DeidBatch.h"
#include "core/io/AtomicFile.h"

namespace delineate::core::deid {

namespace {

constexpr const char* kRecordFormat = "delineate-deidentification";
constexpr const char* kRecordProfile =
    "DICOM PS3.15 Annex E Basic Application Level Confidentiality Profile";

}  // namespace

nlohmann::json deidentificationRecord(const DeidOptions& options, const DeidSummary& summary) {
  std::string method;
  for (const std::string& phrase : options.methodPhrases()) {
    method += (method.empty() ? "" : "; ") + phrase;
  }
  return {{"format", kRecordFormat},
          {"version", 1},
          {"profile", kRecordProfile},
          {"method", method},
          {"method_codes", options.methodCodes()},
          {"options", toJson(options)},
          {"written", summary.count(DeidResult::Status::Written)},
          {"held_back", summary.count(DeidResult::Status::HeldBack)},
          {"failed", summary.count(DeidResult::Status::Failed)}};
}

void writeDeidentificationRecord(const std::filesystem::path& folder, const DeidOptions& options,
                                 const DeidSummary& summary) {
  writeTextAtomically(folder / "deidentification.json",
                      deidentificationRecord(options, summary).dump(2) + "\n",
                      "the de-identification record");
}

std::string deidentificationRecordFromJson(const std::string& text, const std::string& source) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (!doc.is_object() || doc.value("format", nlohmann::json()) != kRecordFormat) {
    throw Error(
        ErrorKind::InvalidInput, source,
        std::string("not a de-identification record (no \"format\": \"") + kRecordFormat + "\")");
  }
  const nlohmann::json method = doc.value("method", nlohmann::json());
  if (!method.is_string()) {
    throw Error(ErrorKind::InvalidInput, source, "\"method\" is not a string");
  }
  return method.get<std::string>();
}

}  // namespace delineate::core::deid
