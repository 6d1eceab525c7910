#pragma once
// The mammography report beside the reading view (Mammography > Report, a dock on the right):
// "Draft from AI findings" turns the findings shown into a BI-RADS draft whose fields are marked
// AI-proposed. The "Fields" tab lists every field with its value, the AI's value and its
// provenance (AI-proposed, accepted unchanged, edited, manual) and edits composition, overall
// assessment and impression; the "Findings" tab edits one finding at a time (MammoFindingEditor;
// selecting one highlights its CAD mark). "Accept all AI proposals" reviews what is left; the
// difference from the AI draft is listed at the bottom. Undo / Redo (also Ctrl+Z / Ctrl+Shift+Z
// while the dock has the focus) step through the changes (core/report/ReportHistory), never
// across a signature. Sign asks for the reader's name and refuses, listing what is missing, while
// required fields are empty; a signed report is locked and takes signed addenda.
//
// "Read first, then reveal AI" (checked before drafting): the reading view hides the CAD marks
// and heatmap and the dock shows no AI value until the reader has recorded an own assessment
// and pressed "Reveal AI" (MammoReadFirstBox); both assessments are kept and shown.
// Every change is appended to the workstation's report audit trail (ReportAudit).
#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <optional>

#include "core/report/MammographyReport.h"
#include "core/report/ReportHistory.h"

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTreeWidget;

namespace delineate::app {

class ReportExportButton;
struct ReportExportSource;

class MammoFeature;
class MammoFindingEditor;
class MammoReadFirstBox;
class MammoReportFields;
class ReportAudit;

class MammoReportPanel : public QWidget {
  Q_OBJECT

 public:
  MammoReportPanel(MammoFeature* feature, bool interactive, QWidget* parent = nullptr);
  ~MammoReportPanel() override;

  // False (with a message) when no findings are shown.
  bool draftFromFindings();
  // A report read from a file (File > Open report…): replaces the one shown.
  void setReport(core::report::MammographyReport report);
  const std::optional<core::report::MammographyReport>& report() const { return report_; }
  ReportExportButton* exportButton() const { return exportButton_; }
  void clear();

  bool setComposition(core::report::BreastComposition composition);
  bool setAssessment(core::report::AssessmentCategory category);
  bool setImpression(const QString& text);
  bool acceptAll();
  // Read first, then reveal: the mode (before drafting), the own assessment, the reveal.
  void setReadFirst(bool on);
  bool recordOwnAssessment(core::report::AssessmentCategory category);
  bool revealAi();
  bool undo();
  bool redo();
  // Empty when signed; else what is missing (or why it cannot be signed).
  QStringList sign(const QString& name);
  bool addAddendum(const QString& text, const QString& name);
  bool save(const QString& file);

  QTreeWidget* fields() const;  // the Fields tab's table
  QTabWidget* tabs() const { return tabs_; }
  QCheckBox* readFirstCheck() const { return readFirst_; }
  MammoReadFirstBox* readFirstBox() const { return readFirstBox_; }
  MammoFindingEditor* findingEditor() const { return findingEditor_; }
  QPushButton* undoButton() const { return undoButton_; }
  QPushButton* redoButton() const { return redoButton_; }
  QString differencesText() const;
  QString statusText() const;
  // The trail the report docks append to (shared with the measurement report dock).
  ReportAudit* audit() const { return audit_; }
  static QString auditFile();

 private:
  bool change(const std::function<void(core::report::MammographyContent&)>& edit);
  void record(const std::vector<core::report::AuditEntry>& entries);
  // record() as a callable, for the shared report steps.
  std::function<void(const std::vector<core::report::AuditEntry>&)> recorder();
  void refresh();
  void updateConcealment();
  void highlightFinding(int id);
  void reportError(const QString& message);
  QString user() const;

  MammoFeature* feature_;
  bool interactive_;
  // The findings shown were replaced: findings whose CAD mark is gone get a broken link (values
  // kept), links whose mark is back are repaired (core::report::updateMarkLinks; undoable).
  void checkMarkLinks();
  // The report with the study's views and the AI findings shown, for Export.
  std::optional<ReportExportSource> exportSource(QString& whyNot) const;

  std::optional<core::report::MammographyReport> report_;
  core::report::MammographyHistory history_;
  ReportAudit* audit_;
  QCheckBox* readFirst_;
  MammoReadFirstBox* readFirstBox_;
  QLabel* status_;
  QTabWidget* tabs_;
  MammoReportFields* fields_;
  MammoFindingEditor* findingEditor_;
  QPlainTextEdit* differences_;
  QPushButton* undoButton_;
  QPushButton* redoButton_;
  QPushButton* acceptAllButton_;
  QPushButton* signButton_;
  QPushButton* addendumButton_;
  QPushButton* saveButton_;
  ReportExportButton* exportButton_;
};

}  // namespace delineate::app
