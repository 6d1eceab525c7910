#pragma once
// One line of a report's audit trail: who did what to which field, when, with the field's old and
// new value. Field values only: never the patient's name, id or birth date.
#include <string>

namespace delineate::core::report {

struct AuditEntry {
  std::string time;      // ISO 8601 UTC, "2026-03-04T10:15:00Z"
  std::string user;      // the reader's name
  std::string action;    // "edit", "review", "add", "remove", "sign", "addendum", "reveal-ai", ...
  std::string field;     // field path, e.g. "findings/F1/clockPosition"; empty for the report
  std::string oldValue;  // "" when the field had no value
  std::string newValue;
  bool operator==(const AuditEntry&) const = default;
};

}  // namespace delineate::core::report
