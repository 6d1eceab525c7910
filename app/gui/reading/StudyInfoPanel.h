#pragma once
// Patient, study and series information of the shown volume, plus its grid (size, spacing,
// orientation), value range and any loader warnings.
#include <QWidget>

#include "core/model/Volume.h"

class QFormLayout;
class QLabel;

namespace delineate::app {

class StudyInfoPanel : public QWidget {
  Q_OBJECT

 public:
  explicit StudyInfoPanel(QWidget* parent = nullptr);
  void setVolume(const core::VolumePtr& volume);
  // The text of one row by its label ("Patient", "Modality", ...); for tests.
  QString value(const QString& label) const;

 private:
  void addRow(const QString& label, const QString& text);
  QFormLayout* form_ = nullptr;
};

}  // namespace delineate::app
