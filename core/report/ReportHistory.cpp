// The listings undo and redo compare, and their audit entries.
#include "core/report/ReportHistory.h"

#include <map>

namespace delineate::core::report {

FieldListing historyListing(const MammographyReport& report) {
  FieldListing out = listFields(report.content());
  const ReadFirstRecord& r = report.readFirst();
  if (r.enabled) {
    listPlain(out, "readFirst/ownAssessment", r.ownAssessment ? keyOf(*r.ownAssessment) : "");
  }
  return out;
}

FieldListing historyListing(const MeasurementReport& report) {
  return listFields(report.rows(), report.notes());
}

std::vector<AuditEntry> historyEntries(const FieldListing& from, const FieldListing& to,
                                       const std::string& action, const std::string& user,
                                       const std::string& time) {
  std::map<std::string, const FieldEntry*> before, after;
  for (const FieldEntry& e : from) {
    before[e.path] = &e;
  }
  for (const FieldEntry& e : to) {
    after[e.path] = &e;
  }
  std::vector<AuditEntry> entries = changesBetween(from, to, user, time);
  for (AuditEntry& e : entries) {
    if (e.action == "review") {  // only the provenance changes: name it on both sides
      e.oldValue += std::string(" (") + keyOf(before.at(e.field)->provenance) + ")";
      e.newValue += std::string(" (") + keyOf(after.at(e.field)->provenance) + ")";
    }
    e.action = action + "-" + e.action;  // "undo-edit", "redo-review", "undo-add", ...
  }
  if (entries.empty()) {
    entries.push_back({time, user, action, "", "", ""});
  }
  return entries;
}

}  // namespace delineate::core::report
