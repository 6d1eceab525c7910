#include "core/deid/DeidentificationRecord.h"

#include <fstream>
#include <sstream>

#include "core/Error.h"
#include "core/deid/DeidBatch.h"
#include "core/io/AtomicFile.h"

namespace delineate::core::deid {

namespace {

constexpr const char* kRecordFormat = "delineate-deidentification";
constexpr const char* kRecordProfile =
    "DICOM PS3.15 Annex E Basic Application Level Confidentiality Profile";
constexpr const char* kRecordName = "deidentification.json";

std::string methodOf(const DeidOptions& options) {
  std::string method;
  for (const std::string& phrase : options.methodPhrases()) {
    method += (method.empty() ? "" : "; ") + phrase;
  }
  return method;
}

// The record in `folder` as JSON; null when there is none. Throws Error(InvalidInput) naming
// it when it is there but is no such record.
nlohmann::json existingRecord(const std::filesystem::path& folder) {
  const std::filesystem::path path = folder / kRecordName;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return nullptr;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    throw Error(ErrorKind::Io, path.string(), "cannot read the de-identification record");
  }
  nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  deidentificationRecordFromJson(text.str(), path.string());  // throws when it is none
  return doc;
}

nlohmann::json runOf(const DeidSummary& summary) {
  return {{"written", summary.count(DeidResult::Status::Written)},
          {"held_back", summary.count(DeidResult::Status::HeldBack)},
          {"failed", summary.count(DeidResult::Status::Failed)}};
}

}  // namespace

nlohmann::json deidentificationRecord(const DeidOptions& options, const DeidSummary& summary) {
  nlohmann::json record = {{"format", kRecordFormat},
                           {"version", 1},
                           {"profile", kRecordProfile},
                           {"method", methodOf(options)},
                           {"method_codes", options.methodCodes()},
                           {"options", toJson(options)}};
  record.update(runOf(summary));
  record["runs"] = nlohmann::json::array({runOf(summary)});
  return record;
}

void checkRecordAllows(const std::filesystem::path& folder, const DeidOptions& options) {
  const nlohmann::json earlier = existingRecord(folder);
  if (earlier.is_null()) {
    return;
  }
  const std::string method = earlier.value("method", std::string());
  const nlohmann::json earlierOptions = earlier.value("options", nlohmann::json());
  const bool same =
      earlierOptions.is_object() ? earlierOptions == toJson(options) : method == methodOf(options);
  if (!same) {
    throw Error(ErrorKind::InvalidInput, (folder / kRecordName).string(),
                "the folder already holds files de-identified with \"" + method +
                    "\"; this run would use \"" + methodOf(options) +
                    "\". Use another output folder for other options");
  }
}

void writeDeidentificationRecord(const std::filesystem::path& folder, const DeidOptions& options,
                                 const DeidSummary& summary) {
  nlohmann::json record = deidentificationRecord(options, summary);
  const nlohmann::json earlier = existingRecord(folder);
  if (!earlier.is_null()) {
    // The same options (checkRecordAllows): this batch is one more run of the folder.
    nlohmann::json runs = earlier.value("runs", nlohmann::json::array());
    if (!runs.is_array() || runs.empty()) {  // a record from before runs were listed
      runs = nlohmann::json::array({{{"written", earlier.value("written", 0)},
                                     {"held_back", earlier.value("held_back", 0)},
                                     {"failed", earlier.value("failed", 0)}}});
    }
    runs.push_back(runOf(summary));
    for (const char* key : {"written", "held_back", "failed"}) {
      std::size_t total = 0;
      for (const nlohmann::json& run : runs) {
        total += run.value(key, std::size_t(0));
      }
      record[key] = total;
    }
    record["runs"] = std::move(runs);
  }
  writeTextAtomically(folder / kRecordName, record.dump(2) + "\n", "the de-identification record");
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
