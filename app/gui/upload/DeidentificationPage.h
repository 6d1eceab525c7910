#pragma once
// Edit > Preferences > De-identification: the options of the PS3.15 Basic Application Level
// Confidentiality Profile used when files go to a research archive (a DICOM node marked
// "De-identify"), and where the re-identification map (the secret behind the pseudonyms and the
// way back to the patients) is kept. Changes are kept at once.
#include <QWidget>

#include "app/gui/upload/DeidSettings.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace delineate::app {

class DeidentificationPage : public QWidget {
  Q_OBJECT

 public:
  explicit DeidentificationPage(QWidget* parent = nullptr);

  QCheckBox* retainDatesCheck() const { return dates_; }
  QCheckBox* retainPatientCheck() const { return patient_; }
  QCheckBox* retainDeviceCheck() const { return device_; }
  QCheckBox* cleanDescriptorsCheck() const { return descriptors_; }
  QLineEdit* mapEdit() const { return map_; }
  QLabel* mapStatus() const { return mapStatus_; }

 private:
  void store();
  void showMapStatus();

  DeidSettings settings_;
  QCheckBox* dates_;
  QCheckBox* patient_;
  QCheckBox* device_;
  QCheckBox* descriptors_;
  QLineEdit* map_;
  QPushButton* choose_;
  QLabel* mapStatus_;
};

}  // namespace delineate::app
