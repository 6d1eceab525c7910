#pragma once
// What the series browser lists: the series of the last DICOM scan (titles, frame counts,
// thumbnails made by a background job), or the one research file that was opened.
#include <QObject>
#include <QString>
#include <vector>

#include "core/io/DicomSeries.h"
#include "core/model/Volume.h"

namespace delineate::app {

class JobRunner;
class SeriesBrowser;

class SeriesListController : public QObject {
  Q_OBJECT

 public:
  SeriesListController(SeriesBrowser* browser, QObject* parent = nullptr);
  ~SeriesListController() override;

  // Lists the series of `scan` (found under `source`), marks `shown` (-1: none) and starts the
  // thumbnails.
  void showScan(const core::DicomScanResult& scan, const QString& source, int shown);
  // A volume is shown: a research file (no scan listed) gets one entry of its own.
  void volumeShown(const core::Volume& volume);
  // The listed DICOM series `index`, or null.
  const core::DicomSeries* series(int index) const;
  // The last scan listed (empty when a research file is shown).
  const core::DicomScanResult& scan() const { return scan_; }
  // The series selected in the browser, as indices into scan().allSeries(), in list order.
  std::vector<std::size_t> selectedSeries() const;
  // Stops the thumbnail job (the window closes).
  void cancel();

 private:
  SeriesBrowser* browser_;
  JobRunner* thumbnails_;
  core::DicomScanResult scan_;
  std::vector<const core::DicomSeries*> series_;
};

}  // namespace delineate::app
