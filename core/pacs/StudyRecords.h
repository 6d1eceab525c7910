#pragma once
// What a PACS says about its studies, series and instances when queried (C-FIND or QIDO-RS), in
// the form the study browser, the CLI's JSON and the retrieve use. Text is UTF-8; dates are
// DICOM's YYYYMMDD; counts are -1 when the node did not say.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace delineate::core::pacs {

struct StudyRecord;

// A study search. Empty fields match everything. Patient name and description take DICOM
// wildcards (* and ?); the date is YYYYMMDD, a range YYYYMMDD-YYYYMMDD, or open -YYYYMMDD /
// YYYYMMDD-. `limit` 0 means all.
struct StudyQuery {
  std::string patientName;
  std::string patientId;
  std::string accessionNumber;
  std::string modality;  // one modality in the study: CT, MR, MG...
  std::string studyDate;
  std::string studyDescription;
  std::string studyInstanceUid;
  std::size_t limit = 0;

  // What is wrong with it (a date that is not a date or range, a wildcard in a UID), or nullopt.
  std::optional<std::string> problem() const;
  // Whether a study matches, as a PACS would judge it (wildcards, names ignoring case, the date
  // range inclusive); for searching what is already on this computer.
  bool matches(const StudyRecord& study) const;
};

struct StudyRecord {
  std::string studyInstanceUid;
  std::string patientName;  // DICOM PN: FAMILY^GIVEN
  std::string patientId;
  std::string patientBirthDate;
  std::string patientSex;
  std::string studyDate;
  std::string studyTime;
  std::string accessionNumber;
  std::string studyDescription;
  std::vector<std::string> modalities;
  int seriesCount = -1;
  int instanceCount = -1;
  nlohmann::json toJson() const;
};

struct SeriesRecord {
  std::string studyInstanceUid;
  std::string seriesInstanceUid;
  std::string modality;
  std::string seriesDescription;
  std::string bodyPart;
  int seriesNumber = -1;
  int instanceCount = -1;
  nlohmann::json toJson() const;
};

struct InstanceRecord {
  std::string seriesInstanceUid;
  std::string sopInstanceUid;
  std::string sopClassUid;
  int instanceNumber = -1;
  // Rows x Columns x Bits Allocated / 8 x Number of Frames, when the node said (QIDO-RS does by
  // default); -1 when not. Lets a retrieve size its requests.
  long long pixelBytes = -1;
};

// True when `value` is a DICOM date (YYYYMMDD) or range of them.
bool isDicomDateOrRange(const std::string& value);

}  // namespace delineate::core::pacs
