#pragma once
// "Labels…" of the AI panel: for each label an AI model proposes, where Accept puts it — the
// segment of the same name (or, for a single structure, the active segment), a chosen segment of
// the active label map, a new segment, or nowhere (skipped). Kept per model
// (AiController::setLabelRules), so a server's "spleen" lands in "Spleen (expert)" every time.
#include <QDialog>
#include <string>
#include <vector>

#include "annotation/ai/ProposalLabelPlan.h"

class QComboBox;
class QTableWidget;

namespace delineate::app {

class LabelMappingDialog : public QDialog {
  Q_OBJECT

 public:
  // `labels`: the model's label names; `segments`: the names of the active map's segments.
  LabelMappingDialog(const QString& model, const std::vector<std::string>& labels,
                     const std::vector<std::string>& segments, const annotation::LabelRules& rules,
                     QWidget* parent = nullptr);

  annotation::LabelRules rules() const;
  // The choice of row `row` (tests): combo items are Default, New segment, Skip, then segments.
  QComboBox* choice(int row) const;
  QTableWidget* table() const { return table_; }

 private:
  std::vector<std::string> labels_;
  std::vector<std::string> segments_;
  QTableWidget* table_;
};

}  // namespace delineate::app
