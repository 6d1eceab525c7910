#include "app/gui/reports/ReportAudit.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "core/Error.h"
#include "core/report/AuditTrail.h"

namespace delineate::app {

ReportAudit::ReportAudit(QObject* parent) : QObject(parent) {}

ReportAudit::~ReportAudit() = default;

QString ReportAudit::auditFile() {
  if (const QString file = qEnvironmentVariable("DELINEATE_AUDIT_FILE"); !file.isEmpty()) {
    return file;  // a site's own place for the trail (and one per test process)
  }
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  return dir + QStringLiteral("/audit/reports.jsonl");
}

QString ReportAudit::append(const std::vector<core::report::AuditEntry>& entries) {
  if (entries.empty()) {
    return {};
  }
  try {
    const QString file = auditFile();
    if (!trail_ || trail_->file() != file.toStdString() ||
        (trail_->size() > 0 && !QFileInfo::exists(file))) {
      QDir().mkpath(QFileInfo(file).absolutePath());
      trail_ = std::make_unique<core::report::AuditTrail>(file.toStdString());
    }
    trail_->append(entries);
  } catch (const core::Error& e) {
    trail_.reset();  // read again (and checked) on the next entry
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace delineate::app
