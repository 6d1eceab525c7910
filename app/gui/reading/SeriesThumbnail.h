#pragma once
// A small preview image of a volume: the middle slice in radiological display orientation
// (axial for 3-D volumes; the image's own plane for single-slice images), windowed with the
// volume's default window. Pure computation: safe on a worker thread.
#include <QImage>

#include <vector>

#include "core/io/DicomSeries.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::app {

QImage makeSeriesThumbnail(const core::Volume& volume, int size = 64);

// One thumbnail per DICOM series from its middle file only (cheap: no whole-series load). A null
// image where that file cannot be read; the series may still load. Runs as a job.
std::vector<QImage> makeDicomThumbnails(const std::vector<core::DicomSeries>& series,
                                        core::ProgressSink& progress, int size = 64);

}  // namespace delineate::app
