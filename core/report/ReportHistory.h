#pragma once
// Undo and redo for a report (MammographyReport or MeasurementReport): change() keeps a snapshot
// of the whole report before each change, so that undo() and redo() restore its content,
// provenance and read-first record exactly. Each undo or redo returns the audit entries of what
// it reverted or re-applied, for the audit trail: one per field that changes, action "undo-edit",
// "undo-review" (only the provenance changes; the values then name it: "mass (ai-proposed)"),
// "undo-add", "undo-remove" (and "redo-..."), with the field's value before and after.
//
// Nothing is undone across a signature: clear() after signing (and after revealing the AI in
// read-first mode, which cannot be taken back) empties both stacks, and undo() / redo() refuse
// a signed report (ReportLockedError): undo never unlocks one.
#include <cstddef>
#include <deque>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/report/AuditEntry.h"
#include "core/report/FieldListing.h"
#include "core/report/MammographyReport.h"
#include "core/report/MeasurementReport.h"
#include "core/report/ReportSignOff.h"

namespace delineate::core::report {

// What an undo compares: every field of the report, plus (mammography) the read-first record's
// own assessment ("readFirst/ownAssessment").
FieldListing historyListing(const MammographyReport& report);
FieldListing historyListing(const MeasurementReport& report);

// The entries turning `from` into `to`, actions prefixed with `action` ("undo" / "redo"); one
// entry with that action and an empty field when no listed field differs.
std::vector<AuditEntry> historyEntries(const FieldListing& from, const FieldListing& to,
                                       const std::string& action, const std::string& user,
                                       const std::string& time);

template <class Report>
class ReportHistory {
 public:
  explicit ReportHistory(std::size_t limit = 200) : limit_(limit) {}

  // Runs `change(report)` (an edit, accept, own assessment, update...) and returns its result.
  // When the report changed, the report as it was goes on the undo stack and the redo stack is
  // cleared. A change that throws leaves both stacks as they were.
  template <class F>
  auto change(Report& report, F&& f) -> decltype(f(report)) {
    Report before = report;
    auto result = f(report);
    if (!(before == report)) {
      undo_.push_back(std::move(before));
      if (undo_.size() > limit_) {
        undo_.pop_front();
      }
      redo_.clear();
    }
    return result;
  }

  // Nothing before this point can be undone (a signature, the AI revealed, a new report).
  void clear() {
    undo_.clear();
    redo_.clear();
  }

  bool canUndo(const Report& report) const { return !undo_.empty() && !report.locked(); }
  bool canRedo(const Report& report) const { return !redo_.empty() && !report.locked(); }
  std::size_t undoCount() const { return undo_.size(); }
  std::size_t redoCount() const { return redo_.size(); }

  // Restores the report as it was before the last change; returns what that reverted (empty when
  // there is nothing to undo). Throws ReportLockedError when the report is signed.
  std::vector<AuditEntry> undo(Report& report, const std::string& user, const std::string& time) {
    return step(report, undo_, redo_, "undo", user, time);
  }
  // Re-applies the last undone change.
  std::vector<AuditEntry> redo(Report& report, const std::string& user, const std::string& time) {
    return step(report, redo_, undo_, "redo", user, time);
  }

 private:
  std::vector<AuditEntry> step(Report& report, std::deque<Report>& from, std::deque<Report>& to,
                               const std::string& action, const std::string& user,
                               const std::string& time) {
    report.signOff().requireUnlocked(action + " a change");
    if (from.empty()) {
      return {};
    }
    std::vector<AuditEntry> entries =
        historyEntries(historyListing(report), historyListing(from.back()), action, user, time);
    to.push_back(std::move(report));
    report = std::move(from.back());
    from.pop_back();
    return entries;
  }

  std::size_t limit_;
  std::deque<Report> undo_, redo_;
};

using MammographyHistory = ReportHistory<MammographyReport>;
using MeasurementHistory = ReportHistory<MeasurementReport>;

}  // namespace delineate::core::report
