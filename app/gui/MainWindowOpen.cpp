// The main window's opening of images: a file or folder (File > Open, drag and drop, the
// command line, recent paths), the built-in sample, a series of the opened study, and showing the
// volume it gives. The rest of the window is in MainWindow.cpp.
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <algorithm>

#include "app/gui/MainWindow.h"
#include "app/gui/compare/EvaluationCaseOpener.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/frames/FramesFeature.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/reading/SeriesBrowser.h"
#include "app/gui/reading/SeriesListController.h"
#include "app/gui/reading/StudyInfoPanel.h"
#include "app/gui/shell/JobRunner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/PathLoader.h"
#include "core/sample/SampleWriter.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"
#include "viewers/ViewState.h"

namespace delineate::app {

namespace {

constexpr int kMaxRecent = 10;
const char* const kRecentKey = "recent/paths";

// True when a scan found images and all of them are mammograms (or other projection X-rays).
bool onlyMammograms(const core::DicomScanResult& scan) {
  const auto series = scan.allSeries();
  return !series.empty() && std::all_of(series.begin(), series.end(), [](const auto* s) {
    return s->modality == "MG" || s->modality == "DX";
  });
}

}  // namespace

bool MainWindow::openPath(const QString& path) {
  if (!ReportFeature::reportFormat(path).isEmpty()) {
    return reports_->openReport(path);  // the image and its label maps stay
  }
  if (!confirmDiscard()) {
    return false;
  }
  return openImage(path);
}

bool MainWindow::openImage(const QString& path) {
  if (!ReportFeature::reportFormat(path).isEmpty()) {
    return false;
  }
  const std::string p = path.toStdString();
  jobs_->run<core::OpenedPath>(
      tr("Opening %1").arg(QFileInfo(path).fileName()),
      [p](core::ProgressSink& progress) {
        core::OpenedPath opened = core::openPath(p, progress);
        if (opened.volume) {
          opened.volume->computeStatistics();  // not on the GUI thread when it is shown
        }
        return opened;
      },
      [this, path](core::OpenedPath opened) {
        addRecent(path);
        if (onlyMammograms(opened.scan)) {
          mammo_->open({path});
          return;
        }
        const int shown = opened.shownSeries ? static_cast<int>(*opened.shownSeries) : -1;
        seriesList_->showScan(opened.scan, path, shown);
        showVolume(opened.volume);
      },
      [this, path](const QString& error, bool cancelled) {
        if (cancelled) {
          statusBar()->showMessage(tr("Opening %1 cancelled").arg(path), 5000);
          return;
        }
        reportError(tr("Cannot open %1:\n%2").arg(path, error));
      });
  return true;
}

void MainWindow::openSample() {
  if (!confirmDiscard()) {
    return;
  }
  jobs_->run<core::OpenedPath>(
      tr("Opening the sample brain MR"),
      [](core::ProgressSink& progress) {
        core::SubProgress write(progress, 0, 0.7);
        core::sample::ensureDefaultSample(write);
        core::SubProgress open(progress, 0.7, 1);
        core::OpenedPath opened = core::openPath(core::sample::defaultSamplePath(), open);
        if (opened.volume) {
          opened.volume->computeStatistics();
        }
        return opened;
      },
      [this](core::OpenedPath opened) {
        const int shown = opened.shownSeries ? static_cast<int>(*opened.shownSeries) : -1;
        // The sample's ground truth, so that a first start shows segments at once.
        const auto labels =
            core::sample::defaultSampleRoot() / "brain-mr" / "brain-mr_labels.nii.gz";
        editing_->setPendingLabels({QString::fromStdString(labels.string())});
        seriesList_->showScan(opened.scan, tr("Sample brain MR"), shown);
        showVolume(opened.volume);
      },
      [this](const QString& error, bool cancelled) {
        if (!cancelled) {
          reportError(tr("Cannot open the sample brain MR:\n%1").arg(error));
        }
      });
}

void MainWindow::loadSeries(int index) {
  const core::DicomSeries* listed = seriesList_->series(index);
  if (listed == nullptr || !confirmDiscard()) {
    return;
  }
  const core::DicomSeries series = *listed;
  jobs_->run<core::VolumePtr>(
      tr("Loading series %1").arg(series.seriesNumber),
      [series](core::ProgressSink& progress) {
        core::VolumePtr volume = core::loadDicomSeries(series, progress);
        volume->computeStatistics();
        return volume;
      },
      [this, index](core::VolumePtr volume) {
        browser_->setCurrent(index);
        showVolume(std::move(volume));
      },
      [this, series](const QString& error, bool cancelled) {
        if (!cancelled) {
          reportError(tr("Cannot load series %1 (%2):\n%3")
                          .arg(series.seriesNumber)
                          .arg(QString::fromStdString(series.description), error));
        }
      });
}

void MainWindow::showVolume(core::VolumePtr volume) {
  mammo_->close();
  volume_ = std::move(volume);
  if (volume_) {
    seriesList_->volumeShown(*volume_);
  }
  info_->setVolume(volume_);
  editing_->imageShown(volume_);
  views_->setVolume(volume_);
  frames_->imageShown(volume_);
  rebuildWindowMenu();
  if (volume_) {
    setWindowTitle(QStringLiteral("Delineate — %1[*]")
                       .arg(QString::fromStdString(volume_->info().seriesDescription)));
    for (const auto& w : volume_->info().warnings) {
      statusBar()->showMessage(QString::fromStdString(w), 10000);
    }
  }
  Q_EMIT volumeShown();
}

FrameBar* MainWindow::frameBar() const {
  return frames_->bar();
}

FrameCurveChart* MainWindow::frameCurve() const {
  return frames_->curve();
}

void MainWindow::showFrame(std::size_t frame) {
  frames_->showFrame(frame);
}

void MainWindow::reportError(const QString& message) {
  if (options_.interactive) {
    QMessageBox::warning(this, tr("Delineate"), message);
  } else {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
  statusBar()->showMessage(message.section(QLatin1Char('\n'), 0, 0), 10000);
  Q_EMIT loadFailed(message);
}

QStringList MainWindow::recentPaths() const {
  return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::addRecent(const QString& path) {
  if (!options_.rememberRecent) {
    return;
  }
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList recent = recentPaths();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  while (recent.size() > kMaxRecent) {
    recent.removeLast();
  }
  QSettings().setValue(QLatin1String(kRecentKey), recent);
  browser_->setRecent(recent);
}

void MainWindow::chooseFile() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open image"), QString(),
      tr("Images (*.nii *.nii.gz *.nrrd *.nhdr *.mha *.mhd *.dcm *.DCM *);;All files (*)"));
  if (!path.isEmpty()) {
    openPath(path);
  }
}

void MainWindow::chooseFolder() {
  const QString path = QFileDialog::getExistingDirectory(this, tr("Open DICOM folder"));
  if (!path.isEmpty()) {
    openPath(path);
  }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) {
    event->acceptProposedAction();
  }
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  for (const QUrl& url : urls) {
    if (url.isLocalFile()) {
      openPath(url.toLocalFile());  // one at a time: the first local path
      event->acceptProposedAction();
      return;
    }
  }
}

}  // namespace delineate::app
