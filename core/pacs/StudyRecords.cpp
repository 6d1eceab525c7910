#include "core/pacs/StudyRecords.h"

#include <algorithm>
#include <cctype>

namespace delineate::core::pacs {

namespace {

bool isDate(const std::string& s) {
  if (s.size() != 8) {
    return false;
  }
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  const int month = std::stoi(s.substr(4, 2)), day = std::stoi(s.substr(6, 2));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

bool hasWildcard(const std::string& s) {
  return s.find_first_of("*?") != std::string::npos;
}

// DICOM wildcard matching (* any run, ? one character), ignoring ASCII case, as PACS match
// names by default.
bool wildcardMatch(const std::string& pattern, const std::string& value) {
  const auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  std::size_t p = 0, v = 0, star = std::string::npos, mark = 0;
  while (v < value.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || lower(pattern[p]) == lower(value[v]))) {
      ++p;
      ++v;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = v;
    } else if (star != std::string::npos) {
      p = star + 1;
      v = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') {
    ++p;
  }
  return p == pattern.size();
}

void putCount(nlohmann::json& j, const char* key, int value) {
  if (value >= 0) {
    j[key] = value;
  }
}

}  // namespace

bool isDicomDateOrRange(const std::string& value) {
  const auto dash = value.find('-');
  if (dash == std::string::npos) {
    return isDate(value);
  }
  const std::string from = value.substr(0, dash), to = value.substr(dash + 1);
  if (from.empty() && to.empty()) {
    return false;
  }
  return (from.empty() || isDate(from)) && (to.empty() || isDate(to)) &&
         (from.empty() || to.empty() || from <= to);
}

bool StudyQuery::matches(const StudyRecord& s) const {
  const auto field = [](const std::string& wanted, const std::string& value) {
    return wanted.empty() || wildcardMatch(wanted, value);
  };
  if (!field(patientName, s.patientName) || !field(patientId, s.patientId) ||
      !field(accessionNumber, s.accessionNumber) || !field(studyDescription, s.studyDescription) ||
      (!studyInstanceUid.empty() && studyInstanceUid != s.studyInstanceUid)) {
    return false;
  }
  if (!modality.empty() &&
      std::find(s.modalities.begin(), s.modalities.end(), modality) == s.modalities.end()) {
    return false;
  }
  if (!studyDate.empty()) {
    const auto dash = studyDate.find('-');
    const std::string from = dash == std::string::npos ? studyDate : studyDate.substr(0, dash);
    const std::string to = dash == std::string::npos ? studyDate : studyDate.substr(dash + 1);
    if (s.studyDate.empty() || (!from.empty() && s.studyDate < from) ||
        (!to.empty() && s.studyDate > to)) {
      return false;
    }
  }
  return true;
}

std::optional<std::string> StudyQuery::problem() const {
  if (!studyDate.empty() && !isDicomDateOrRange(studyDate)) {
    return "the study date '" + studyDate +
           "' is not YYYYMMDD or a range YYYYMMDD-YYYYMMDD (either end may be left open)";
  }
  if (hasWildcard(studyInstanceUid)) {
    return "a study UID takes no wildcards";
  }
  if (modality.find_first_of("*?\\") != std::string::npos) {
    return "give one modality (CT, MR, MG...), without wildcards";
  }
  return std::nullopt;
}

nlohmann::json StudyRecord::toJson() const {
  nlohmann::json j = {{"study_instance_uid", studyInstanceUid},
                      {"patient_name", patientName},
                      {"patient_id", patientId},
                      {"patient_birth_date", patientBirthDate},
                      {"patient_sex", patientSex},
                      {"study_date", studyDate},
                      {"study_time", studyTime},
                      {"accession_number", accessionNumber},
                      {"study_description", studyDescription},
                      {"modalities", modalities}};
  putCount(j, "series", seriesCount);
  putCount(j, "instances", instanceCount);
  return j;
}

nlohmann::json SeriesRecord::toJson() const {
  nlohmann::json j = {{"study_instance_uid", studyInstanceUid},
                      {"series_instance_uid", seriesInstanceUid},
                      {"modality", modality},
                      {"series_description", seriesDescription},
                      {"body_part", bodyPart}};
  putCount(j, "series_number", seriesNumber);
  putCount(j, "instances", instanceCount);
  return j;
}

}  // namespace delineate::core::pacs
