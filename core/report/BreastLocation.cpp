// Laterality, depth, size, nipple offsets and clock position of a CAD mark.
#include "core/report/BreastLocation.h"

#include <cmath>
#include <numbers>

#include "core/Error.h"

namespace delineate::core::report {

using mammo::ViewCode;

bool isCranioCaudal(ViewCode view) {
  return view == ViewCode::CC || view == ViewCode::XCCL || view == ViewCode::XCCM;
}

bool isMediolateral(ViewCode view) {
  return view == ViewCode::MLO || view == ViewCode::ML || view == ViewCode::LM;
}

MarkLocation locateMark(const mammo::FindingMark& mark, const ImageFacts& image) {
  if (image.columns == 0 || image.rows == 0 || !(image.spacingMm > 0)) {
    throw Error(ErrorKind::InvalidInput, image.imageId,
                "the image's size and pixel spacing must be positive to locate a finding");
  }
  MarkLocation out;
  out.laterality = image.view.laterality;
  const double s = image.spacingMm;
  const double wallColumn = image.chestWall == mammo::ChestWall::Left ? 0.0 : double(image.columns);
  const std::array<double, 2> nipple =
      image.nipple ? *image.nipple
                   : std::array<double, 2>{double(image.columns) - wallColumn, image.rows / 2.0};
  const double nippleFromWall = std::abs(nipple[0] - wallColumn);
  if (nippleFromWall > 0) {
    const double f = std::abs(mark.column - wallColumn) / nippleFromWall;
    out.depth = f > 2.0 / 3 ? Depth::Anterior : f > 1.0 / 3 ? Depth::Middle : Depth::Posterior;
  }
  const double extent = std::max(mark.x1 - mark.x0, mark.y1 - mark.y0);
  if (extent > 0) {
    out.sizeMm = extent * s;
  }
  const double up = (nipple[1] - mark.row) * s;  // towards row 0
  if (isCranioCaudal(image.view.view)) {
    out.lateralMm = up;
  } else if (isMediolateral(image.view.view)) {
    out.superiorMm = up;
  }
  out.nippleDistanceMm = std::hypot((mark.column - nipple[0]) * s, (mark.row - nipple[1]) * s);
  return out;
}

std::optional<int> clockPosition(mammo::Laterality laterality, double lateralMm,
                                 double superiorMm) {
  if (laterality == mammo::Laterality::Unknown || std::hypot(lateralMm, superiorMm) < 5.0) {
    return std::nullopt;
  }
  // Facing the patient, 3 o'clock is the reader's right: the right breast's medial side and the
  // left breast's lateral side.
  const double towardsThree = laterality == mammo::Laterality::Left ? lateralMm : -lateralMm;
  const double degrees = std::atan2(towardsThree, superiorMm) * 180.0 / std::numbers::pi;
  int hour = int(std::lround(degrees / 30.0));
  hour = ((hour % 12) + 12) % 12;
  return hour == 0 ? 12 : hour;
}

}  // namespace delineate::core::report
