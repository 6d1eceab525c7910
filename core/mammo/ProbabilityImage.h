#pragma once
// A probability map that arrives as an image rather than in a findings file, read for the
// mammography heatmap overlay:
//   - a DICOM Segmentation of type FRACTIONAL (one frame; values / Maximum Fractional Value);
//   - a DICOM Parametric Map (one frame of Float or Double Float Pixel Data, or integer Pixel
//     Data through its Real World Value Mapping's slope and intercept);
//   - a NIfTI, NRRD or MetaImage file (one slice; floating-point values as they are, integer ones
//     divided by their type's maximum: 255 for 8-bit, 65535 for 16-bit).
// Voxels are taken in the order they are stored (column fastest), which is the image's own order
// when the map was computed from the image as ITK, MONAI or Delineate read it. Values outside
// 0..1 are clamped, with a warning. A DICOM map names the image it belongs to (Source Image
// Sequence of its Derivation Image Sequence, else its Referenced Series Sequence); a research
// file cannot, and is placed by its grid.
#include <filesystem>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/mammo/MammoFindings.h"
#include "core/model/Volume.h"

namespace delineate::core::mammo {

struct ProbabilityImage {
  std::size_t columns = 0, rows = 0;
  std::vector<float> values;    // 0..1, row by row
  std::string referencedImage;  // SOP Instance UID of the image it belongs to, when it says
  std::string kind;             // "DICOM Segmentation (fractional)", "NIfTI", ...
  std::vector<std::string> warnings;
};

// Throws Error(InvalidInput) naming the file when it is no probability map of one slice (a
// binary segmentation, several frames or slices, a DICOM object of another kind), Error(Io) when
// it cannot be read.
ProbabilityImage readProbabilityImage(const std::filesystem::path& file, ProgressSink& progress);

// One slice of a volume as a probability map (as for a research file above; an AI server's
// answer image). Throws Error(InvalidInput) naming `where` for more than one slice.
ProbabilityImage probabilityFromVolume(const Volume& volume, const std::string& where);

// The heatmap of `map` over an image of `columns` x `rows` pixels: a map on the image's grid is
// averaged down to at most 1024 pixels on its long side (an integer step, kept small in memory);
// a coarser map whose two sides scale the image's by the same factor (within 1 %) is used as it
// is, with that step. Throws Error(InvalidInput) naming `where` with both sizes otherwise.
FindingHeatmap heatmapOnImage(const ProbabilityImage& map, std::size_t columns, std::size_t rows,
                              const std::string& where);

}  // namespace delineate::core::mammo
