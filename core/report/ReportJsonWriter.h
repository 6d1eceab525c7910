#pragma once
// JSON of the parts every report file shares: a field with its provenance, a link, the subject,
// the signature and addenda; and the atomic write of a report file.
//
//   field:   {"value": <v>, "ai": <AI's value>, "reviewed": true, "provenance": "edited"}
//            ("value"/"ai" left out when absent; "provenance" is derived, written for readers)
//   link:    {"kind": "cad-mark", "imageId": "1.2.3", "markIndex": 0, "broken": false}
//            {"kind": "segment", "labelMap": "labels", "segment": 2, "broken": true}
//   subject: {"patientName", "patientId", "birthDate", "studyInstanceUid", "accessionNumber"}
//   "signature": {"name", "time"} (absent when unsigned), "addenda": [{"text", "name", "time"}]
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/report/FieldValue.h"
#include "core/report/ReportField.h"
#include "core/report/ReportLink.h"
#include "core/report/ReportSignOff.h"
#include "core/report/ReportSubject.h"

namespace delineate::core::report {

template <class T>
nlohmann::json fieldToJson(const ReportField<T>& field) {
  nlohmann::json j = nlohmann::json::object();
  if (field.value()) {
    j["value"] = valueToJson(*field.value());
  }
  if (field.aiValue()) {
    j["ai"] = valueToJson(*field.aiValue());
  }
  j["reviewed"] = field.reviewed();
  j["provenance"] = keyOf(field.provenance());
  return j;
}

nlohmann::json linkToJson(const ReportLink& link);
nlohmann::json subjectToJson(const ReportSubject& subject);
// Adds "signature" (when signed) and "addenda" to `report`.
void addSignOff(nlohmann::json& report, const ReportSignOff& signOff);

// Writes `report` (2-space indented) atomically; Error(Io) naming the file.
void writeReportFile(const nlohmann::json& report, const std::filesystem::path& file);

}  // namespace delineate::core::report
