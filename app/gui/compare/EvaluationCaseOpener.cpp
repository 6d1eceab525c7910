#include "app/gui/compare/EvaluationCaseOpener.h"

#include <QFileInfo>

#include "app/gui/MainWindow.h"
#include "app/gui/compare/CompareDock.h"
#include "app/gui/compare/CompareFeature.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/LabelFileController.h"
#include "core/metrics/DatasetPairing.h"

namespace delineate::app {

namespace {

bool isDicomSeg(const QString& path) {
  return path.endsWith(QLatin1String(".dcm"), Qt::CaseInsensitive);
}

QString caseName(const QString& path) {
  return QString::fromStdString(core::caseNameOf(path.toStdString()));
}

}  // namespace

EvaluationCaseOpener::EvaluationCaseOpener(MainWindow* window) : QObject(window), window_(window) {
  connect(window_, &MainWindow::volumeShown, this, [this] {
    if (step_ != Step::Image) {
      return;
    }
    const QString shown = QString::fromStdString(window_->volume()->info().sourcePath);
    if (QFileInfo(shown) != QFileInfo(imagePath_)) {
      step_ = Step::Idle;  // another image was opened meanwhile: the case is dropped
      return;
    }
    openLabels();
  });
  connect(window_, &MainWindow::loadFailed, this, [this](const QString& message) {
    if (step_ == Step::Image) {
      fail(message);
    }
  });
  LabelFileController* files = window_->editing()->files();
  connect(files, &LabelFileController::labelMapOpened, this, &EvaluationCaseOpener::labelOpened);
  connect(files, &LabelFileController::openFailed, this, [this](const QString& message) {
    if (step_ == Step::Reference || step_ == Step::Test) {
      fail(message);
    }
  });
}

void EvaluationCaseOpener::open(const Case& c) {
  case_ = c;
  reference_ = nullptr;
  test_ = nullptr;
  const core::VolumePtr& current = window_->volume();
  if (isDicomSeg(c.referencePath) || isDicomSeg(c.testPath)) {
    // A SEG's segments are imported onto its source series, which must be the open image.
    if (!current || current->info().sourceFiles.empty()) {
      fail(tr("%1 is a DICOM SEG: open its source series first, then double-click the case "
              "again.")
               .arg(isDicomSeg(c.referencePath) ? c.referencePath : c.testPath));
      return;
    }
    imagePath_ = QString::fromStdString(current->info().sourcePath);
    openLabels();
    return;
  }
  const auto image = core::findCaseImage(c.referencePath.toStdString());
  imagePath_ = image ? QString::fromStdString(image->string()) : c.referencePath;
  if (current &&
      QFileInfo(QString::fromStdString(current->info().sourcePath)) == QFileInfo(imagePath_)) {
    openLabels();  // the case's image is already shown: its maps are added to it
    return;
  }
  step_ = Step::Image;
  if (!window_->openPath(imagePath_)) {
    step_ = Step::Idle;  // the user kept their unsaved work
  }
}

void EvaluationCaseOpener::openLabels() {
  step_ = Step::Reference;
  openNext(case_.referencePath);
}

void EvaluationCaseOpener::openNext(const QString& path) {
  LabelFileController* files = window_->editing()->files();
  if (isDicomSeg(path)) {
    files->importDicomSeg(path);
    return;
  }
  using Mismatch = LabelFileController::OnGridMismatch;
  files->openLabelMap(path,
                      step_ == Step::Test && case_.resample ? Mismatch::Resample : Mismatch::Ask);
}

const core::LabelMap* EvaluationCaseOpener::newestMap() const {
  return window_->editing()->session()->activeMap().get();
}

void EvaluationCaseOpener::labelOpened() {
  EditSession* session = window_->editing()->session();
  if (step_ == Step::Reference) {
    reference_ = newestMap();
    session->renameLabelMap(*reference_, tr("%1 reference").arg(caseName(case_.referencePath)));
    step_ = Step::Test;
    openNext(case_.testPath);
  } else if (step_ == Step::Test) {
    test_ = newestMap();
    session->renameLabelMap(*test_, tr("%1 test").arg(caseName(case_.testPath)));
    step_ = Step::Idle;
    compare();
  }
}

void EvaluationCaseOpener::compare() {
  CompareFeature* compare = window_->compare();
  compare->show();
  QString error;
  if (!compare->panel()->compareMaps(*reference_, *test_, case_.labelValue, case_.labelName,
                                     case_.toleranceMm, &error)) {
    fail(error);
    return;
  }
  Q_EMIT opened();
}

void EvaluationCaseOpener::fail(const QString& message) {
  step_ = Step::Idle;
  Q_EMIT failed(message);
}

}  // namespace delineate::app
