#pragma once
// One image of a mammography reading layout as its viewport shows it: the pyramid (a coarse
// preview first, then the full one), how it is stored (size, spacing, chest wall side) and the
// caption ("R CC", the study date, "prior").
#include <QString>
#include <string>

#include "core/mammo/ImagePyramid.h"
#include "core/mammo/MammoView.h"
#include "core/mammo/ReadingGeometry.h"

namespace delineate::viewers {

struct MammoImage {
  std::string id;              // the file, as in hangings
  std::string sopInstanceUid;  // AI findings and reports name images by it when known
  core::mammo::PyramidPtr pyramid;
  core::mammo::PlacedImage placed;
  QString title;     // "R CC"
  QString subtitle;  // "2026-05-02", "2024-04-28 prior"
  bool monochrome1 = false;
  std::size_t frames = 1;  // a tomosynthesis stack: its frames, one shown at a time
  core::mammo::Laterality laterality = core::mammo::Laterality::Unknown;  // linked stacks
};

}  // namespace delineate::viewers
