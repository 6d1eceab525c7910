#include "app/gui/editing/LabelFileController.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <memory>

#include "app/gui/CommandRegistry.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "core/Error.h"
#include "core/io/DicomSegReader.h"
#include "core/io/DicomSegWriter.h"
#include "core/io/LabelMapFileIO.h"

namespace delineate::app {

namespace {

const char* const kLabelFilter =
    "Label maps (*.nii.gz *.nii *.nrrd *.nhdr *.mha *.mhd);;All files (*)";

}  // namespace

LabelFileController::LabelFileController(EditSession* session, EditJobs* jobs,
                                         CommandRegistry* commands, bool interactive,
                                         std::function<void(const QString&)> showError,
                                         QObject* parent)
    : QObject(parent),
      session_(session),
      jobs_(jobs),
      commands_(commands),
      interactive_(interactive),
      showError_(std::move(showError)) {
  connect(commands_->add("file.newLabelMap", tr("&New label map"), QKeySequence(tr("Ctrl+N"))),
          &QAction::triggered, this, [this] {
            if (!session_->refuseEdit()) {
              session_->newLabelMap();
            }
          });
  connect(
      commands_->add("file.openLabelMap", tr("Open &label map…"), QKeySequence(tr("Ctrl+Shift+O"))),
      &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            QApplication::activeWindow(), tr("Open label map"),
            QFileInfo(suggestedPath(".nii.gz")).path(), tr(kLabelFilter));
        if (!path.isEmpty()) {
          openLabelMap(path);
        }
      });
  connect(commands_->add("file.saveLabelMap", tr("&Save label map"), QKeySequence::Save),
          &QAction::triggered, this, &LabelFileController::save);
  connect(commands_->add("file.saveLabelMapAs", tr("Save label map &as…"),
                         QKeySequence(tr("Ctrl+Shift+S"))),
          &QAction::triggered, this, &LabelFileController::saveAs);
  connect(commands_->add("file.exportDicomSeg", tr("&Export DICOM SEG…")), &QAction::triggered,
          this, [this] {
            const QString path = QFileDialog::getSaveFileName(
                QApplication::activeWindow(), tr("Export DICOM SEG"), suggestedPath("_seg.dcm"),
                tr("DICOM (*.dcm);;All files (*)"));
            if (!path.isEmpty()) {
              exportDicomSeg(path);
            }
          });
  connect(commands_->add("file.importDicomSeg", tr("&Import DICOM SEG…")), &QAction::triggered,
          this, [this] {
            const QString path =
                QFileDialog::getOpenFileName(QApplication::activeWindow(), tr("Import DICOM SEG"),
                                             QString(), tr("All files (*)"));
            if (!path.isEmpty()) {
              importDicomSeg(path);
            }
          });
  connect(session_, &EditSession::labelMapsChanged, this, &LabelFileController::updateEnabled);
  updateEnabled();
}

void LabelFileController::updateEnabled() {
  const bool image = session_->image() != nullptr;
  const bool map = session_->activeMap() != nullptr;
  const bool dicom = image && !session_->image()->info().sourceFiles.empty();
  commands_->action("file.newLabelMap")->setEnabled(image);
  commands_->action("file.openLabelMap")->setEnabled(image);
  commands_->action("file.importDicomSeg")->setEnabled(image);
  commands_->action("file.saveLabelMap")->setEnabled(map);
  commands_->action("file.saveLabelMapAs")->setEnabled(map);
  commands_->action("file.exportDicomSeg")->setEnabled(map && dicom);
  commands_->action("file.exportDicomSeg")
      ->setToolTip(dicom ? tr("Save the label map as a DICOM Segmentation")
                         : tr("Only for images read from DICOM"));
}

QString LabelFileController::savePath() const {
  const auto map = session_->activeMap();
  return map ? pathOf(*map) : QString();
}

QString LabelFileController::pathOf(const core::LabelMap& map) const {
  const auto it = paths_.find(&map);
  return it == paths_.end() ? QString() : it->second;
}

QString LabelFileController::suggestedPath(const QString& extension) const {
  const QString saved = savePath();
  if (!saved.isEmpty() && extension == QLatin1String(".nii.gz")) {
    return saved;
  }
  const auto& image = session_->image();
  if (!image) {
    return QString();
  }
  const QFileInfo source(QString::fromStdString(image->info().sourcePath));
  QString stem = source.fileName();
  for (const char* ext : {".nii.gz", ".nii", ".nrrd", ".nhdr", ".mha", ".mhd", ".dcm"}) {
    if (stem.endsWith(QLatin1String(ext))) {
      stem.chop(static_cast<int>(qstrlen(ext)));
    }
  }
  // A DICOM folder: beside it; a file: beside the file.
  const QString folder = source.absolutePath();
  return folder + QLatin1Char('/') + (stem.isEmpty() ? QStringLiteral("labels") : stem) +
         (extension == QLatin1String(".nii.gz") ? QStringLiteral("_labels.nii.gz") : extension);
}

void LabelFileController::openLabelMap(const QString& path, OnGridMismatch onMismatch) {
  if (!session_->image()) {
    showError_(tr("Open an image before its label map (%1)").arg(path));
    return;
  }
  const std::string file = path.toStdString();
  jobs_->run<std::shared_ptr<core::LabelMap>>(
      tr("Opening %1").arg(QFileInfo(path).fileName()),
      [file](core::ProgressSink& progress) {
        progress.throwIfCancelled();
        return std::make_shared<core::LabelMap>(core::readLabelMapFiles(file, nullptr, progress));
      },
      [this, path, onMismatch](std::shared_ptr<core::LabelMap> map) {
        const std::string diff = map->geometry().differenceFrom(session_->image()->geometry());
        if (diff.empty()) {
          install(std::move(map), path);
          return;
        }
        const QString message = tr("%1 is on another grid than the image: %2 (labels vs image).")
                                    .arg(path, QString::fromStdString(diff));
        OnGridMismatch choice = onMismatch;
        if (choice == OnGridMismatch::Ask) {
          choice =
              interactive_ && QMessageBox::question(
                                  QApplication::activeWindow(), tr("Label map on another grid"),
                                  message + tr("\n\nResample it onto the image's grid (nearest "
                                               "neighbour)?")) == QMessageBox::Yes
                  ? OnGridMismatch::Resample
                  : OnGridMismatch::Refuse;
        }
        if (choice == OnGridMismatch::Resample) {
          resampleAndInstall(std::move(map), path);
        } else {
          showError_(message);
          Q_EMIT openFailed(message);
        }
      },
      [this, path](const QString& error) {
        const QString message = tr("Cannot open the label map %1:\n%2").arg(path, error);
        showError_(message);
        Q_EMIT openFailed(message);
      });
}

void LabelFileController::openLabelMaps(const QStringList& paths) {
  if (paths.isEmpty()) {
    return;
  }
  if (!session_->image()) {
    showError_(
        tr("Open an image before its label maps (%1)").arg(paths.join(QStringLiteral(", "))));
    return;
  }
  struct Opened {
    std::vector<std::pair<std::shared_ptr<core::LabelMap>, QString>> maps;  // path empty: resampled
    QStringList errors;
  };
  std::vector<std::string> files;
  for (const QString& p : paths) {
    files.push_back(p.toStdString());
  }
  const core::ImageGeometry target = session_->image()->geometry();
  jobs_->run<Opened>(
      tr("Opening %n label map(s)", nullptr, int(paths.size())),
      [files, target](core::ProgressSink& progress) {
        Opened out;
        for (std::size_t n = 0; n < files.size(); ++n) {
          core::SubProgress part(progress, double(n) / double(files.size()),
                                 double(n + 1) / double(files.size()));
          part.throwIfCancelled();
          const QString path = QString::fromStdString(files[n]);
          try {
            auto map =
                std::make_shared<core::LabelMap>(core::readLabelMapFiles(files[n], nullptr, part));
            if (!map->geometry().differenceFrom(target).empty()) {
              map = std::make_shared<core::LabelMap>(core::resampleNearest(*map, target));
              out.maps.emplace_back(std::move(map), QString());
            } else {
              out.maps.emplace_back(std::move(map), path);
            }
          } catch (const core::CancelledError&) {
            throw;
          } catch (const std::exception& e) {
            out.errors << tr("%1: %2").arg(path, QString::fromUtf8(e.what()));
          }
        }
        return out;
      },
      [this](Opened opened) {
        for (auto& [map, path] : opened.maps) {
          install(std::move(map), path);
        }
        if (!opened.errors.isEmpty()) {
          const QString message =
              tr("Cannot open these label maps:\n%1").arg(opened.errors.join(QLatin1Char('\n')));
          showError_(message);
          Q_EMIT openFailed(message);
        }
      },
      [this](const QString& error) {
        const QString message = tr("Cannot open the label maps:\n%1").arg(error);
        showError_(message);
        Q_EMIT openFailed(message);
      });
}

void LabelFileController::resampleAndInstall(std::shared_ptr<core::LabelMap> map,
                                             const QString& path) {
  const core::ImageGeometry target = session_->image()->geometry();
  std::shared_ptr<const core::LabelMap> source = std::move(map);
  jobs_->run<std::shared_ptr<core::LabelMap>>(
      tr("Resampling %1").arg(QFileInfo(path).fileName()),
      [source, target](core::ProgressSink& progress) {
        progress.throwIfCancelled();
        return std::make_shared<core::LabelMap>(core::resampleNearest(*source, target));
      },
      [this, path](std::shared_ptr<core::LabelMap> resampled) {
        // Resampled: saving must not overwrite the original file on its own grid.
        install(std::move(resampled), QString());
        Q_EMIT session_->statusMessage(tr("%1 resampled onto the image's grid").arg(path));
      });
}

void LabelFileController::install(std::shared_ptr<core::LabelMap> map, const QString& path) {
  try {
    const core::LabelMap* raw = map.get();
    session_->addLabelMap(std::move(map));
    if (!path.isEmpty()) {
      paths_[raw] = path;
    }
    Q_EMIT labelMapOpened();
  } catch (const std::exception& e) {
    showError_(QString::fromUtf8(e.what()));
    Q_EMIT openFailed(QString::fromUtf8(e.what()));
  }
}

bool LabelFileController::save() {
  const QString path = savePath();
  return path.isEmpty() ? saveAs() : saveTo(path);
}

bool LabelFileController::saveAs() {
  if (!session_->activeMap()) {
    return false;
  }
  const QString path =
      QFileDialog::getSaveFileName(QApplication::activeWindow(), tr("Save label map"),
                                   suggestedPath(".nii.gz"), tr(kLabelFilter));
  return !path.isEmpty() && saveTo(path);
}

bool LabelFileController::saveTo(const QString& path) {
  const auto map = session_->activeMap();
  if (!map) {
    return false;
  }
  std::shared_ptr<const core::LabelMap> source = map;
  const std::string file = path.toStdString();
  return jobs_->run<bool>(
      tr("Saving %1").arg(QFileInfo(path).fileName()),
      [source, file](core::ProgressSink& progress) {
        progress.throwIfCancelled();
        // Atomic: the old file stays on failure or Cancel.
        core::writeLabelMapFiles(*source, file, progress);
        return true;
      },
      [this, source, path](bool) {
        paths_[source.get()] = path;
        session_->markSaved(*source);
        Q_EMIT session_->statusMessage(tr("Saved %1").arg(path));
        Q_EMIT saved(path, source.get());
      },
      [this, path](const QString& error) {
        const QString message =
            tr("Cannot save the label map to %1:\n%2\n\nYour work is kept; save it elsewhere.")
                .arg(path, error);
        showError_(message);
        Q_EMIT saveFailed(message);
      });
}

void LabelFileController::exportDicomSeg(const QString& path) {
  const auto map = session_->activeMap();
  const core::VolumePtr image = session_->image();
  if (!map || !image) {
    return;
  }
  if (image->info().sourceFiles.empty()) {
    showError_(tr("DICOM SEG export needs an image read from DICOM (%1 is not)")
                   .arg(QString::fromStdString(image->info().sourcePath)));
    return;
  }
  std::shared_ptr<const core::LabelMap> source = map;
  const std::string file = path.toStdString();
  jobs_->run<bool>(
      tr("Exporting %1").arg(QFileInfo(path).fileName()),
      [source, image, file](core::ProgressSink& progress) {
        core::DicomSegOptions options;
        options.seriesDescription = source->name();
        core::writeDicomSeg(*source, *image, file, options, progress);
        return true;
      },
      [this, path](bool) { Q_EMIT session_->statusMessage(tr("Exported %1").arg(path)); },
      [this, path](const QString& error) {
        showError_(tr("Cannot export DICOM SEG %1:\n%2").arg(path, error));
      });
}

void LabelFileController::importDicomSeg(const QString& path) {
  const core::VolumePtr image = session_->image();
  if (!image) {
    return;
  }
  const std::string file = path.toStdString();
  using Result = std::pair<std::shared_ptr<core::LabelMap>, std::vector<std::string>>;
  jobs_->run<Result>(
      tr("Importing %1").arg(QFileInfo(path).fileName()),
      [image, file](core::ProgressSink& progress) {
        std::vector<std::string> warnings;
        auto map = std::make_shared<core::LabelMap>(
            core::readDicomSeg(file, image->geometry(), progress, &warnings));
        return Result{std::move(map), std::move(warnings)};
      },
      [this](Result result) {
        install(std::move(result.first), QString());
        if (!result.second.empty()) {
          Q_EMIT session_->statusMessage(QString::fromStdString(result.second.front()));
        }
      },
      [this, path](const QString& error) {
        showError_(tr("Cannot import DICOM SEG %1:\n%2").arg(path, error));
      });
}

}  // namespace delineate::app
