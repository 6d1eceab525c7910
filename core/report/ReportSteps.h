#pragma once
// The steps both report docks (mammography, measurement) take the same way on the report they
// show, without Qt: undo, redo, sign (nothing is undone across the signature; the history is
// cleared) and addendum, each stamped with the reader's name and the time (UTC, ISO 8601) and
// handed to `record` (the dock's audit) when it changed something. app/gui/reports/ReportSteps.h
// adds the login name, the clock and the dialogs. docs/reports.md.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/report/AuditEntry.h"
#include "core/report/ReportHistory.h"
#include "core/report/ReportSignOff.h"

namespace delineate::core::report {

using Record = std::function<void(const std::vector<AuditEntry>&)>;

// False when there is nothing to undo (or redo).
template <class Report>
bool undoStep(std::optional<Report>& report, ReportHistory<Report>& history,
              const std::string& user, const std::string& time, const Record& record) {
  if (!report || !history.canUndo(*report)) {
    return false;
  }
  record(history.undo(*report, user, time));
  return true;
}

template <class Report>
bool redoStep(std::optional<Report>& report, ReportHistory<Report>& history,
              const std::string& user, const std::string& time, const Record& record) {
  if (!report || !history.canRedo(*report)) {
    return false;
  }
  record(history.redo(*report, user, time));
  return true;
}

// Empty when signed; else what is missing, or why it cannot be signed.
template <class Report>
std::vector<std::string> signStep(std::optional<Report>& report, ReportHistory<Report>& history,
                                  const std::string& name, const std::string& time,
                                  const Record& record) {
  if (!report) {
    return {"there is no report"};
  }
  try {
    record({report->sign(name, time)});
  } catch (const MissingFieldsError& e) {
    return e.missing();
  } catch (const Error& e) {
    return {e.what()};
  }
  history.clear();  // nothing is undone across a signature
  return {};
}

// "" when added, else why not ("there is no report").
template <class Report>
std::string addendumStep(std::optional<Report>& report, const std::string& text,
                         const std::string& name, const std::string& time, const Record& record) {
  if (!report) {
    return "there is no report";
  }
  try {
    record({report->addAddendum(text, name, time)});
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace delineate::core::report
