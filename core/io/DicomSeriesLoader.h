#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "core/io/DicomSeries.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/FrameSeries.h"
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

// What loading would give, read from the headers alone (no pixel is decoded): what a folder
// listing shows. The same checks as loading: Error when the files cannot form one image.
struct DicomSeriesSummary {
  ImageGeometry geometry;  // of one frame
  VolumeInfo info;         // identity, the files' windows, warnings (no windows from the voxels)
  std::size_t frameCount = 1;
  FrameAxis frameAxis;  // when frameCount > 1
  // The voxel type; nullopt when the voxel values decide it on loading (16-bit data whose
  // rescale could leave Int16), then the types it can become.
  std::optional<ScalarType> scalarType;
  std::vector<ScalarType> scalarTypeCandidates;
  std::optional<ScalarType> colourType;  // colour images: the channels' type
};

DicomSeriesSummary summarizeDicomSeries(const DicomSeries& series, ProgressSink& progress);

}  // namespace delineate::core
