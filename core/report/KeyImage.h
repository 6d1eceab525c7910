#pragma once
// Key images for the report PDFs: an 8-bit RGB picture with its caption, and the makers of the two
// kinds reports carry.
// - Mammography: one view drawn through its pyramid and display table (as the reading view shows
//   it, as stored, not mirrored), fitted into a size, with the CAD mark of every report finding
//   linked to that view drawn as a box in the finding's colour and labelled with its name ("F1").
// - MR/CT measurement: the axial slice (the index axis nearest the patient's S/I axis) through
//   the largest cross-section of a measurement row's segment, in radiological orientation (patient
//   right on the image's left, anterior at the top) with square pixels, windowed with the image's
//   first window (else its 1st..99th percentile on that slice), the segment's outline in its
//   colour; the caption names the segment and the slice.
// Neither copies a volume: only the slice or the fitted view is sampled.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/mammo/DisplayLut.h"
#include "core/mammo/ImagePyramid.h"
#include "core/mammo/MammoFindings.h"
#include "core/mammo/MammoView.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"
#include "core/report/MammographyReport.h"
#include "core/report/MeasurementReport.h"

namespace delineate::core::report {

struct KeyImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // width * height * 3 bytes, row by row from the top
  std::string caption;

  std::array<std::uint8_t, 3> pixel(int x, int y) const;
  void setPixel(int x, int y, std::array<std::uint8_t, 3> color);
};

// The box colour of finding `id` (a small palette of saturated colours, cycling).
std::array<std::uint8_t, 3> findingColor(int id);

// One view of a mammography study as a key image no larger than maxWidth x maxHeight (aspect
// kept). `view` names the image (its id is what the report's links and `marks` use); `marks` are
// that image's CAD marks (StudyFindings' entry for it), `display` its window (e.g.
// defaultDisplaySettings). A complete pyramid gives a filtered picture; level 0 alone is sampled.
// Findings linked to other images, or to a mark index `marks` lacks, are not drawn. Caption:
// "L CC: F1 Mass, F3 Calcification" (or "L CC: no findings"). Throws Error(InvalidInput) when
// maxWidth or maxHeight is not positive.
KeyImage mammographyKeyImage(const MammographyReport& report, const mammo::MammoView& view,
                             const mammo::ImageFindings& marks, const mammo::ImagePyramid& pyramid,
                             const mammo::DisplaySettings& display, int maxWidth, int maxHeight);

// The key image of measurement row `row` (its segment in `labels`, which lies on `image`'s grid),
// no larger than maxWidth x maxHeight. Caption: "<segment name>: slice k of n (largest
// cross-section)". Throws Error(InvalidInput) naming the label map when the grids differ, the
// row's segment has no voxels (deleted, or empty), or a size is not positive.
KeyImage measurementKeyImage(const MeasurementRow& row, const LabelMap& labels, const Volume& image,
                             int maxWidth, int maxHeight);

}  // namespace delineate::core::report
