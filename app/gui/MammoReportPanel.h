#pragma once
// The mammography report beside the reading view (Mammography > Report, a dock on the right):
// "Draft from AI findings" turns the findings shown into a BI-RADS draft whose fields are marked
// AI-proposed; the table lists every field with its value, the AI's value and its provenance
// (AI-proposed, accepted unchanged, edited, manual); composition, overall assessment and
// impression are edited here; "Accept all AI proposals" reviews what is left; the difference
// from the AI draft is listed under the table. Sign asks for the reader's name and refuses,
// listing what is missing, while required fields are empty; a signed report is locked and takes
// signed addenda. Every change is appended to the audit trail (core/report/AuditTrail, no
// patient identifiers) in the file auditFile().
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>

#include "core/report/AuditTrail.h"
#include "core/report/MammographyReport.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace delineate::app {

class MammoFeature;

class MammoReportPanel : public QWidget {
  Q_OBJECT

 public:
  MammoReportPanel(MammoFeature* feature, bool interactive, QWidget* parent = nullptr);
  ~MammoReportPanel() override;

  // False (with a message) when no findings are shown.
  bool draftFromFindings();
  const std::optional<core::report::MammographyReport>& report() const { return report_; }
  void clear();

  bool setComposition(core::report::BreastComposition composition);
  bool setAssessment(core::report::AssessmentCategory category);
  bool setImpression(const QString& text);
  bool acceptAll();
  // Empty when signed; else what is missing (or why it cannot be signed).
  QStringList sign(const QString& name);
  bool addAddendum(const QString& text, const QString& name);
  bool save(const QString& file);

  QTreeWidget* fields() const { return fields_; }
  QString differencesText() const;
  QString statusText() const;
  // The append-only audit trail of this workstation's reports.
  static QString auditFile();

 private:
  bool change(const std::function<void(core::report::MammographyContent&)>& edit);
  void record(const std::vector<core::report::AuditEntry>& entries);
  void refresh();
  void reportError(const QString& message);
  QString user() const;

  MammoFeature* feature_;
  bool interactive_;
  std::optional<core::report::MammographyReport> report_;
  std::unique_ptr<core::report::AuditTrail> audit_;
  QLabel* status_;
  QTreeWidget* fields_;
  QComboBox* composition_;
  QComboBox* assessment_;
  QPlainTextEdit* impression_;
  QPlainTextEdit* differences_;
  QPushButton* signButton_;
};

}  // namespace delineate::app
