#pragma once
// The findings of a mammography report, one at a time (the "Findings" tab of the report dock):
// a list of the findings ("F1 · Mass · L · 2 o'clock"); selecting one shows its kind, laterality,
// clock position, depth, descriptors and description in editors (the mass descriptors enabled for
// a mass, the calcification ones for calcifications). A change applies at once as the reader's
// own value (AI-proposed becomes edited, or accepted when it equals the AI's value). "Accept AI
// values" reviews the finding's remaining proposals unchanged; "Remove" takes it out; "Add" adds
// the reader's own finding (provenance manual). Changes go through the `change` callback (the
// panel: audit, undo); selecting a finding emits findingSelected (the panel highlights its mark).
#include <QWidget>
#include <functional>

#include "core/report/MammographyContent.h"

class QComboBox;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace delineate::app {

class MammoFindingEditor : public QWidget {
  Q_OBJECT

 public:
  using Change = std::function<bool(const std::function<void(core::report::MammographyContent&)>&)>;

  MammoFindingEditor(Change change, QWidget* parent = nullptr);

  // Shows `content`'s findings (nullptr: none); keeps the selected finding when it still exists.
  void setContent(const core::report::MammographyContent* content, bool editable);
  int selectedFinding() const;  // its id, 0 for none
  bool selectFinding(int id);

  QListWidget* list() const { return list_; }
  QComboBox* kindCombo() const { return kind_; }
  QComboBox* lateralityCombo() const { return laterality_; }
  QComboBox* clockCombo() const { return clock_; }
  QComboBox* massShapeCombo() const { return massShape_; }
  QComboBox* calcificationMorphologyCombo() const { return morphology_; }
  QLineEdit* descriptionEdit() const { return description_; }
  QPushButton* acceptButton() const { return accept_; }
  QPushButton* removeButton() const { return remove_; }
  QPushButton* addButton() const { return add_; }

 Q_SIGNALS:
  void findingSelected(int id);

 private:
  void showSelected();
  // Applies the editors' values that differ from the selected finding's.
  void applyEditors();
  void editSelected(const std::function<void(core::report::MammoFinding&)>& edit);

  Change change_;
  const core::report::MammographyContent* content_ = nullptr;
  bool editable_ = false;
  bool showing_ = false;
  QListWidget* list_;
  QComboBox* kind_;
  QComboBox* laterality_;
  QComboBox* clock_;
  QComboBox* depth_;
  QComboBox* massShape_;
  QComboBox* massMargin_;
  QComboBox* massDensity_;
  QComboBox* morphology_;
  QComboBox* distribution_;
  QLineEdit* description_;
  QPushButton* accept_;
  QPushButton* remove_;
  QPushButton* add_;
};

}  // namespace delineate::app
