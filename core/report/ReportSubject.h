#pragma once
// Whom and which study a report is about. These identifiers are written in the report file only:
// never in the audit trail, field listings or application logs.
#include <string>

namespace delineate::core::report {

struct ReportSubject {
  std::string patientName;
  std::string patientId;
  std::string birthDate;  // YYYYMMDD
  std::string studyInstanceUid;
  std::string accessionNumber;
  bool operator==(const ReportSubject&) const = default;
};

}  // namespace delineate::core::report
