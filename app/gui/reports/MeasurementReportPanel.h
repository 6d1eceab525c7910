#pragma once
// The measurement report of the MR/CT window (Report > Measurement report, dock "Measurement
// report"): "Create from segments" measures the active label map over the image shown
// (core::report::MeasurementReport: volume, mean and SD, largest diameter per segment) in a
// background job with progress and Cancel; the table lists the rows with their link to the
// segment. "Update" re-measures after edits: a deleted segment's row keeps its values and is
// marked "broken". Impression and recommendations are the reader's (with their provenance);
// Undo / Redo (also Ctrl+Z / Ctrl+Shift+Z in the dock) step through the changes, never across
// the signature. Sign asks for the name and lists what is missing; a signed report takes signed
// addenda. Save / Open JSON (core/report/MeasurementReportJson). Every change goes to the
// workstation's report audit trail (ReportAudit, shared with the mammography report).
#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

#include "core/report/MeasurementReport.h"
#include "core/report/ReportHistory.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace delineate::app {

class EditSession;
class JobRunner;
class ReportAudit;
class ReportExportButton;
struct ReportExportSource;

class MeasurementReportPanel : public QWidget {
  Q_OBJECT

 public:
  enum Column { Name, Volume, Mean, Sd, Diameter, Link, ColumnCount };

  MeasurementReportPanel(EditSession* session, ReportAudit* audit, bool interactive,
                         QWidget* parent = nullptr);
  ~MeasurementReportPanel() override;

  // Start the measuring job; false (with a message) without an image and label map.
  bool createFromSegments();
  bool update();
  // True while a measurement job runs.
  bool busy() const;
  JobRunner* jobs() const { return jobs_; }

  bool setNotes(const QString& impression, const QString& recommendations);
  bool undo();
  bool redo();
  // Empty when signed; else what is missing (or why it cannot be signed).
  QStringList sign(const QString& name);
  bool addAddendum(const QString& text, const QString& name);
  bool save(const QString& file);
  // Reads a report file; on an error the report shown stays (message names file and line).
  bool open(const QString& file);
  void setReport(core::report::MeasurementReport report);
  const std::optional<core::report::MeasurementReport>& report() const { return report_; }

  QTableWidget* table() const { return table_; }
  QString statusText() const;
  QPushButton* undoButton() const { return undoButton_; }
  QPushButton* redoButton() const { return redoButton_; }
  ReportExportButton* exportButton() const { return exportButton_; }

 Q_SIGNALS:
  void measured();  // a create or update finished (or failed)

 private:
  bool startMeasuring(bool updating, int attempt = 0);
  // The report and the image and label map it was measured on, for Export.
  std::optional<ReportExportSource> exportSource(QString& whyNot) const;
  void apply(
      const std::function<std::vector<core::report::AuditEntry>(core::report::MeasurementReport&)>&
          change);
  void record(const std::vector<core::report::AuditEntry>& entries);
  // record() as a callable, for the shared report steps.
  std::function<void(const std::vector<core::report::AuditEntry>&)> recorder();
  void refresh();
  void reportError(const QString& message);
  QString user() const;

  EditSession* session_;
  ReportAudit* audit_;
  bool interactive_;
  JobRunner* jobs_;
  std::optional<core::report::MeasurementReport> report_;
  core::report::MeasurementHistory history_;
  QLabel* status_;
  QTableWidget* table_;
  QPlainTextEdit* impression_;
  QPlainTextEdit* recommendations_;
  QLabel* notesProvenance_;
  QPushButton* createButton_;
  QPushButton* updateButton_;
  QPushButton* applyButton_;
  QPushButton* undoButton_;
  QPushButton* redoButton_;
  QPushButton* signButton_;
  QPushButton* addendumButton_;
  QPushButton* saveButton_;
  ReportExportButton* exportButton_;
};

}  // namespace delineate::app
