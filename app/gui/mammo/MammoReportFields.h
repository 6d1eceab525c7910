#pragma once
// The "Fields" tab of the mammography report dock: every field of the report with its value, the
// AI's value and its provenance (coloured: AI-proposed amber, accepted unchanged blue, edited
// red, manual grey), rows grouped by finding; under it the composition, overall assessment and
// impression, applied with Apply as the reader's own values. While read-first hides the AI, one
// row says so and nothing else is shown. Selecting a finding's row emits findingActivated.
#include <QWidget>
#include <functional>

#include "core/report/MammographyReport.h"

class QComboBox;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace delineate::app {

class MammoReportFields : public QWidget {
  Q_OBJECT

 public:
  using Change = std::function<bool(const std::function<void(core::report::MammographyContent&)>&)>;

  MammoReportFields(Change change, QWidget* parent = nullptr);

  // `report` nullptr: empty; aiShown false: the hidden-AI row only.
  void showReport(const core::report::MammographyReport* report, bool aiShown, bool editable);
  QTreeWidget* tree() const { return fields_; }

 Q_SIGNALS:
  void findingActivated(int id);

 private:
  Change change_;
  QTreeWidget* fields_;
  QComboBox* composition_;
  QComboBox* assessment_;
  QPlainTextEdit* impression_;
  QPushButton* apply_;
};

}  // namespace delineate::app
