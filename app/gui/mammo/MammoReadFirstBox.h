#pragma once
// The "read first, then reveal AI" part of the mammography report dock: while the AI is hidden,
// the reader's own BI-RADS assessment (0-6) and Record, then "Reveal AI"; afterwards both the
// own assessment (entered before the AI was shown) and the report's final assessment. Hidden for
// a report not read in that mode. The panel does the recording (audit, undo).
#include <QWidget>

#include "core/report/MammographyReport.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace delineate::app {

class MammoReadFirstBox : public QWidget {
  Q_OBJECT

 public:
  explicit MammoReadFirstBox(QWidget* parent = nullptr);

  // Shows the state of `report` (nullptr: none).
  void showReport(const core::report::MammographyReport* report);
  QComboBox* assessmentCombo() const { return assessment_; }
  QPushButton* recordButton() const { return record_; }
  QPushButton* revealButton() const { return reveal_; }
  QString text() const;

 Q_SIGNALS:
  void recordRequested(core::report::AssessmentCategory category);
  void revealRequested();

 private:
  QComboBox* assessment_;
  QPushButton* record_;
  QPushButton* reveal_;
  QLabel* state_;
};

}  // namespace delineate::app
