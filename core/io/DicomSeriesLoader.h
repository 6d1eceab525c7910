#pragma once
#include "core/io/DicomSeries.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::core {

// Loads one series into a Volume: slices sorted along the slice normal, geometry checked (gaps,
// uneven spacing, gantry tilt, mixed sizes: VolumeInfo::warnings, or Error when unusable),
// rescale slope/intercept applied, any supported transfer syntax decoded. Throws Error naming the
// file and the problem.
VolumePtr loadDicomSeries(const DicomSeries& series, ProgressSink& progress);

struct DicomLoadOptions {
  // Decoding threads; 0 picks automatically (several only when there are many slices).
  unsigned threads = 0;
};

VolumePtr loadDicomSeries(const DicomSeries& series, ProgressSink& progress,
                          const DicomLoadOptions& options);

}  // namespace delineate::core
