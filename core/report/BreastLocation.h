#pragma once
// Where a CAD mark lies in the breast, computed from its position on one mammogram: laterality,
// depth, size, and the offset from the nipple that the view can tell; and the clock position from
// the offsets two views give.
//
// Conventions (documented here once, used by the report draft):
// - Images are as stored, with the standard orientation of DICOM mammography (Patient Orientation
//   R CC "P\L", L CC "A\R", R MLO "P\F", L MLO "A\F"): on CC views (and XCCL, XCCM) the lateral
//   side of the breast is at the top of the image (row 0), on MLO, ML and LM views the superior
//   side is. The chest wall lies against the stored side given in ImageFacts (left or right edge).
// - The nipple is ImageFacts::nipple when the caller knows it; otherwise it is taken at the middle
//   row on the image edge opposite the chest wall (the breast is assumed to fill the image width).
// - Depth: the distance from the chest wall edge along the rows, as a fraction of the nipple's;
//   over 2/3 anterior, over 1/3 middle, else posterior. On MLO the chest wall (pectoralis) is
//   taken as the image edge, an approximation.
// - A CC view tells only the lateral/medial offset from the nipple, an MLO (ML, LM) view only the
//   superior/inferior one. The clock position needs both: it is the clock face as the reader faces
//   the patient (12 superior, right breast: 9 lateral, 3 medial; left breast: 3 lateral, 9
//   medial), the angle of (lateral, superior) rounded to the nearest hour. Within 5 mm of the
//   nipple there is no clock position (central / retroareolar).
// - Size: the larger side of the mark's box in mm (pixel spacing at the breast); none for a mark
//   without a box.
#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "core/mammo/HangingProtocol.h"
#include "core/mammo/MammoFindings.h"
#include "core/mammo/MammoView.h"
#include "core/report/BiRads.h"

namespace delineate::core::report {

struct ImageFacts {
  std::string imageId;  // as in StudyFindings
  mammo::MammoView view;
  std::size_t columns = 0, rows = 0;
  double spacingMm = 0;  // pixel spacing at the breast, mm per pixel (square pixels)
  mammo::ChestWall chestWall = mammo::ChestWall::Left;  // the edge it lies against, as stored
  std::optional<std::array<double, 2>> nipple;          // (column, row) when known
};

struct MarkLocation {
  mammo::Laterality laterality = mammo::Laterality::Unknown;
  std::optional<Depth> depth;
  std::optional<double> sizeMm;
  std::optional<double> lateralMm;   // CC views: + lateral / - medial of the nipple
  std::optional<double> superiorMm;  // MLO, ML, LM views: + superior / - inferior
  double nippleDistanceMm = 0;       // from the mark's centre to the nipple
};

// Throws Error(InvalidInput) naming the image when its size or spacing is not positive.
MarkLocation locateMark(const mammo::FindingMark& mark, const ImageFacts& image);

// The clock position 1..12 of a point `lateralMm` lateral and `superiorMm` superior of the
// nipple; nullopt within 5 mm of it or for an unknown laterality.
std::optional<int> clockPosition(mammo::Laterality laterality, double lateralMm, double superiorMm);

// CC, XCCL, XCCM: lateral-medial views; MLO, ML, LM: views telling superior-inferior.
bool isCranioCaudal(mammo::ViewCode view);
bool isMediolateral(mammo::ViewCode view);

}  // namespace delineate::core::report
