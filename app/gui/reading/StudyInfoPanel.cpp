#include "app/gui/reading/StudyInfoPanel.h"
#include "core/Text.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>

#include "core/model/VolumeInfo.h"

namespace delineate::app {

namespace {

QString fromStd(const std::string& s) {
  return QString::fromStdString(s);
}

// DICOM dates are YYYYMMDD.
QString dicomDate(const std::string& d) {
  return fromStd(core::isoDateOfDicom(d));
}

}  // namespace

StudyInfoPanel::StudyInfoPanel(QWidget* parent) : QWidget(parent) {
  form_ = new QFormLayout(this);
  form_->setContentsMargins(6, 6, 6, 6);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  setVolume(nullptr);
}

void StudyInfoPanel::addRow(const QString& label, const QString& text) {
  if (text.trimmed().isEmpty()) {
    return;
  }
  auto* value = new QLabel(text, this);
  value->setTextInteractionFlags(Qt::TextSelectableByMouse);
  value->setWordWrap(true);
  value->setToolTip(text);
  value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  value->setObjectName(label);
  form_->addRow(label + QLatin1Char(':'), value);
}

void StudyInfoPanel::setVolume(const core::VolumePtr& volume) {
  while (form_->rowCount() > 0) {
    form_->removeRow(0);
  }
  if (!volume) {
    addRow(tr("Status"), tr("No image loaded"));
    return;
  }
  const core::VolumeInfo& i = volume->info();
  const core::ImageGeometry& g = volume->geometry();
  addRow(tr("Patient"), fromStd(i.patientName));
  addRow(tr("Patient ID"), fromStd(i.patientId));
  addRow(tr("Birth date"), dicomDate(i.patientBirthDate));
  addRow(tr("Sex"), fromStd(i.patientSex));
  addRow(tr("Study date"), dicomDate(i.studyDate));
  addRow(tr("Study"), fromStd(i.studyDescription));
  addRow(tr("Accession"), fromStd(i.accessionNumber));
  addRow(
      tr("Series"),
      (i.seriesNumber != 0 ? QString::number(i.seriesNumber) + QStringLiteral(" · ") : QString()) +
          fromStd(i.seriesDescription));
  addRow(tr("Modality"), fromStd(i.modality));
  addRow(tr("Size"), QStringLiteral("%1 × %2 × %3").arg(g.size[0]).arg(g.size[1]).arg(g.size[2]));
  addRow(tr("Spacing"), QStringLiteral("%1 × %2 × %3 mm")
                            .arg(g.spacing[0], 0, 'g', 4)
                            .arg(g.spacing[1], 0, 'g', 4)
                            .arg(g.spacing[2], 0, 'g', 4));
  addRow(tr("Orientation"), fromStd(g.orientationCode()));
  addRow(tr("Voxel type"), fromStd(std::string(core::toString(volume->scalarType()))));
  const auto [lo, hi] = volume->valueRange();
  addRow(tr("Value range"), QStringLiteral("%1 … %2").arg(lo, 0, 'g', 6).arg(hi, 0, 'g', 6));
  addRow(tr("Encoding"), fromStd(i.transferSyntax));
  addRow(tr("Source"), fromStd(i.sourcePath));
  QStringList warnings;
  for (const auto& w : i.warnings) {
    warnings << fromStd(w);
  }
  addRow(tr("Warnings"), warnings.join(QLatin1Char('\n')));
}

QString StudyInfoPanel::value(const QString& label) const {
  if (auto* l = findChild<QLabel*>(label)) {
    return l->text();
  }
  return {};
}

}  // namespace delineate::app
