#pragma once
// What loading a DICOM series decides before it decodes a pixel: every file's header, the checks
// that the files form one image, the grid (and the frames of a 4-D series), the slice order, the
// rescale of each slice and the voxel type. `delineate-cli info` lists a folder from this alone;
// the loader then decodes the pixels into that plan. Internal to core/io.
#include <optional>
#include <string>
#include <vector>

#include "core/io/DicomFrameDecoder.h"
#include "core/io/DicomFrameSplit.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomPixelConversion.h"
#include "core/io/DicomSeries.h"
#include "core/io/DicomSliceGeometry.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/VolumeInfo.h"

namespace delineate::core {

struct DicomSeriesPlan {
  std::vector<DicomFileHeader> headers;  // the files that could be read
  std::vector<std::string> warnings;     // skipped files, geometry caveats
  bool colour = false;                   // RGB / YBR / PALETTE COLOR (core/io/DicomColour.h)
  bool floating = false;                 // Float or Double Float Pixel Data
  DicomSampleFormat format;
  std::optional<DicomFileHeader::ModalityLut> modalityLut;
  std::optional<DicomFrameSplit> split;        // set for 4-D series and cine loops
  std::vector<DicomStackLayout> layouts;       // one per frame, all on the first one's grid
  std::vector<DicomSliceSource> slices;        // every slice of every frame, frame after frame
  std::vector<Rescale> rescales;               // one per slice
  ScalarType channelType = ScalarType::UInt8;  // colour: the channels' (and luminance's) type
  DicomPixelPlan pixels;                       // the voxel type while decoding

  std::size_t frameCount() const { return layouts.size(); }
  const DicomStackLayout& layout() const { return layouts.front(); }
};

// Reads every header (several threads when there are many files) and plans the series. Throws
// Error naming the file and the problem when the files cannot form one image; unreadable files
// among readable ones are skipped with a warning.
DicomSeriesPlan planDicomSeries(const DicomSeries& series, ProgressSink& progress,
                                unsigned threads);

// The VolumeInfo loading gives the plan's image: identity, display hints from the files (not the
// windows computed from the voxels), the plan's warnings, then `decodingWarnings`, then what the
// headers noticed (at most five).
VolumeInfo dicomSeriesInfo(const DicomSeriesPlan& plan, const DicomSeries& series,
                           const std::vector<std::string>& decodingWarnings);

}  // namespace delineate::core
