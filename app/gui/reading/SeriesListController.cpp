#include "app/gui/reading/SeriesListController.h"

#include <QImage>
#include <QListWidget>
#include <algorithm>

#include "app/gui/reading/SeriesBrowser.h"
#include "app/gui/reading/SeriesThumbnail.h"
#include "app/gui/shell/JobRunner.h"

namespace delineate::app {

namespace {

QString seriesTitle(const core::DicomSeries& s) {
  QString t = QObject::tr("Series %1").arg(s.seriesNumber);
  if (!s.modality.empty()) {
    t += QStringLiteral(" · ") + QString::fromStdString(s.modality);
  }
  return t;
}

}  // namespace

SeriesListController::SeriesListController(SeriesBrowser* browser, QObject* parent)
    : QObject(parent), browser_(browser), thumbnails_(new JobRunner(this)) {}

SeriesListController::~SeriesListController() {
  cancel();
}

void SeriesListController::cancel() {
  thumbnails_->cancel();
  thumbnails_->waitForIdle();
}

void SeriesListController::showScan(const core::DicomScanResult& scan, const QString& source,
                                    int shown) {
  scan_ = scan;
  series_ = scan_.allSeries();
  std::vector<SeriesEntry> entries;
  for (const core::DicomSeries* s : series_) {
    entries.push_back({seriesTitle(*s), QString::fromStdString(s->description),
                       static_cast<int>(std::max(s->frames, s->files.size()))});
  }
  browser_->setSeries(entries, source);
  if (shown >= 0) {
    browser_->setCurrent(shown);
  }
  std::vector<core::DicomSeries> copies;
  for (const core::DicomSeries* s : series_) {
    copies.push_back(*s);
  }
  if (copies.empty()) {
    return;
  }
  thumbnails_->run<std::vector<QImage>>(
      tr("Thumbnails"),
      [copies](core::ProgressSink& progress) { return makeDicomThumbnails(copies, progress); },
      [this](std::vector<QImage> images) {
        for (std::size_t i = 0; i < images.size(); ++i) {
          if (!images[i].isNull()) {
            browser_->setThumbnail(static_cast<int>(i), images[i]);
          }
        }
      },
      [](const QString&, bool) {});
}

void SeriesListController::volumeShown(const core::Volume& volume) {
  if (!series_.empty()) {
    return;
  }
  const auto& info = volume.info();
  browser_->setSeries(
      {{QString::fromStdString(info.seriesDescription), QString::fromStdString(info.modality),
        static_cast<int>(volume.geometry().size[2])}},
      QString::fromStdString(info.sourcePath));
  browser_->setThumbnail(0, makeSeriesThumbnail(volume));
  browser_->setCurrent(0);
}

const core::DicomSeries* SeriesListController::series(int index) const {
  return index >= 0 && index < static_cast<int>(series_.size())
             ? series_[static_cast<std::size_t>(index)]
             : nullptr;
}

std::vector<std::size_t> SeriesListController::selectedSeries() const {
  std::vector<std::size_t> out;
  for (int row = 0; row < browser_->list()->count(); ++row) {
    if (browser_->list()->item(row)->isSelected() && row < static_cast<int>(series_.size())) {
      out.push_back(static_cast<std::size_t>(row));
    }
  }
  return out;
}

}  // namespace delineate::app
