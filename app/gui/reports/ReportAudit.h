#pragma once
// The workstation's report audit trail, shared by the report docks (mammography report,
// measurement report) so that their entries continue one hash chain: an AuditTrail on the file
// auditFile() (<app data>/audit/reports.jsonl), opened on the first entry. MainWindow's report
// docks get the same instance; it lives as long as the window.
#include <QObject>
#include <QString>
#include <memory>
#include <vector>

#include "core/report/AuditEntry.h"

namespace delineate::core::report {
class AuditTrail;
}

namespace delineate::app {

class ReportAudit : public QObject {
  Q_OBJECT

 public:
  explicit ReportAudit(QObject* parent = nullptr);
  ~ReportAudit() override;

  // <app data>/audit/reports.jsonl, or the file the environment variable DELINEATE_AUDIT_FILE
  // names.
  static QString auditFile();
  // Appends (fsync'd). Returns "" or why the trail cannot be written (the change stays in the
  // report either way).
  QString append(const std::vector<core::report::AuditEntry>& entries);

 private:
  std::unique_ptr<core::report::AuditTrail> trail_;
};

}  // namespace delineate::app
