#include "app/gui/upload/DeidentificationPage.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/Error.h"
#include "core/deid/ReidentificationMap.h"

namespace delineate::app {

DeidentificationPage::DeidentificationPage(QWidget* parent)
    : QWidget(parent),
      settings_(DeidSettings::load()),
      dates_(new QCheckBox(tr("Keep dates, shifted by a per-patient number of days"), this)),
      patient_(new QCheckBox(tr("Keep patient characteristics (sex, age, size, weight)"), this)),
      device_(new QCheckBox(tr("Keep device identity (serial numbers, station names)"), this)),
      descriptors_(
          new QCheckBox(tr("Keep descriptions, with the file's identifiers taken out"), this)),
      map_(new QLineEdit(this)),
      choose_(new QPushButton(tr("Choose…"), this)),
      mapStatus_(new QLabel(this)) {
  setObjectName(QStringLiteral("deidentification"));
  dates_->setObjectName(QStringLiteral("deidRetainDates"));
  patient_->setObjectName(QStringLiteral("deidRetainPatient"));
  device_->setObjectName(QStringLiteral("deidRetainDevice"));
  descriptors_->setObjectName(QStringLiteral("deidCleanDescriptors"));
  map_->setObjectName(QStringLiteral("deidMap"));
  mapStatus_->setObjectName(QStringLiteral("deidMapStatus"));
  mapStatus_->setWordWrap(true);
  dates_->setToolTip(
      tr("DICOM option 113107: intervals between a patient's studies survive; "
         "birth dates never do."));
  patient_->setToolTip(tr("DICOM option 113108"));
  device_->setToolTip(tr("DICOM option 113109"));
  descriptors_->setToolTip(
      tr("DICOM option 113105: without it descriptions and comments are "
         "removed, since they may name someone the file does not."));
  dates_->setChecked(settings_.options.retainLongitudinalModifiedDates);
  patient_->setChecked(settings_.options.retainPatientCharacteristics);
  device_->setChecked(settings_.options.retainDeviceIdentity);
  descriptors_->setChecked(settings_.options.cleanDescriptors);
  map_->setText(settings_.mapPath);
  map_->setClearButtonEnabled(true);
  try {
    map_->setPlaceholderText(
        QString::fromStdString(core::deid::ReidentificationMap::defaultPath().string()));
  } catch (const core::Error&) {
    map_->setPlaceholderText(tr("no default: set a file"));
  }

  auto* intro = new QLabel(
      tr("Files sent to a DICOM node marked \"De-identify\" are de-identified on this "
         "workstation first, by the DICOM Basic Confidentiality Profile (PS3.15 Annex E): "
         "names, IDs, dates, UIDs and private data are replaced or removed, and images that may "
         "show text in their pixels are held back. These options keep more:"),
      this);
  intro->setWordWrap(true);
  auto* mapRow = new QHBoxLayout;
  mapRow->addWidget(map_, 1);
  mapRow->addWidget(choose_);
  auto* form = new QFormLayout;
  form->addRow(tr("Re-identification map"), mapRow);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  for (QCheckBox* c : {dates_, patient_, device_, descriptors_}) {
    layout->addWidget(c);
    connect(c, &QCheckBox::toggled, this, &DeidentificationPage::store);
  }
  layout->addSpacing(8);
  layout->addLayout(form);
  layout->addWidget(mapStatus_);
  layout->addStretch(1);

  connect(map_, &QLineEdit::editingFinished, this, &DeidentificationPage::store);
  connect(choose_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Re-identification map"),
        map_->text().isEmpty() ? map_->placeholderText() : map_->text(), tr("JSON (*.json)"),
        nullptr, QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty()) {
      map_->setText(path);
      store();
    }
  });
  showMapStatus();
}

void DeidentificationPage::store() {
  settings_.options.retainLongitudinalModifiedDates = dates_->isChecked();
  settings_.options.retainPatientCharacteristics = patient_->isChecked();
  settings_.options.retainDeviceIdentity = device_->isChecked();
  settings_.options.cleanDescriptors = descriptors_->isChecked();
  settings_.mapPath = map_->text().trimmed();
  settings_.save();
  showMapStatus();
}

void DeidentificationPage::showMapStatus() {
  QString text;
  try {
    const std::filesystem::path file = settings_.mapFile();
    std::error_code ec;
    text = std::filesystem::exists(file, ec)
               ? tr("The map holds the secret behind every pseudonym and the way back to the "
                    "patients: keep it on this workstation and back it up.")
               : tr("No map there yet: the first de-identified send creates one (mode 0600).");
  } catch (const core::Error& e) {
    text = QString::fromStdString(e.what());
  }
  mapStatus_->setText(text);
}

}  // namespace delineate::app
