#include "core/io/DicomSegLayout.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmfg/fgpixmsr.h>
#include <dcmtk/dcmfg/fgplanor.h>
#include <dcmtk/dcmfg/fgplanpo.h>
#include <dcmtk/dcmfg/fgseg.h>
#include <dcmtk/dcmseg/segdoc.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/Error.h"

namespace delineate::core {

namespace {

// Frames may sit up to this fraction of a voxel off the target grid (DS rounding).
constexpr double kIndexTolerance = 0.05;

template <class T>
T* group(FGInterface& fg, std::size_t frame, DcmFGTypes::E_FGType type) {
  return dynamic_cast<T*>(fg.get(static_cast<Uint32>(frame), type));
}

std::string frameName(const DicomSegLayout& layout, std::size_t f) {
  return "frame " + std::to_string(f + 1) + " (segment " +
         std::to_string(layout.frames[f].segment) + ")";
}

std::string joined(const double* v, std::size_t n, const char* unit = "") {
  std::ostringstream s;
  for (std::size_t i = 0; i < n; ++i) {
    s << (i ? "," : "") << v[i];
  }
  s << unit;
  return s.str();
}

bool sameOrientation(const std::array<double, 6>& a, const Vec3& row, const Vec3& column) {
  return dot({a[0], a[1], a[2]}, row) > 1 - 1e-4 && dot({a[3], a[4], a[5]}, column) > 1 - 1e-4;
}

bool sameSpacing(double a, double b) {
  return std::abs(a - b) <= 1e-3 * std::max(1.0, std::abs(b));
}

}  // namespace

DicomSegLayout readDicomSegLayout(DcmSegmentation& seg, std::size_t rows, std::size_t columns,
                                  const std::string& where) {
  DicomSegLayout layout;
  layout.rows = rows;
  layout.columns = columns;
  FGInterface& fg = seg.getFunctionalGroups();
  const std::size_t frames = fg.getNumberOfFrames();
  layout.frames.resize(frames);
  for (std::size_t f = 0; f < frames; ++f) {
    DicomSegFrame& frame = layout.frames[f];
    Uint16 number = 0;
    auto* segment = group<FGSegmentation>(fg, f, DcmFGTypes::EFG_SEGMENTATION);
    if (!segment || segment->getReferencedSegmentNumber(number).bad() || number == 0) {
      throw Error(ErrorKind::InvalidInput, where,
                  "frame " + std::to_string(f + 1) + " names no segment");
    }
    frame.segment = number;
    Float64 x = 0, y = 0, z = 0;
    auto* position = group<FGPlanePosPatient>(fg, f, DcmFGTypes::EFG_PLANEPOSPATIENT);
    if (position && position->getImagePositionPatient(x, y, z).good()) {
      frame.position = Vec3{x, y, z};
    }
    std::array<Float64, 6> o{};
    auto* orientation = group<FGPlaneOrientationPatient>(fg, f, DcmFGTypes::EFG_PLANEORIENTPATIENT);
    if (orientation &&
        orientation->getImageOrientationPatient(o[0], o[1], o[2], o[3], o[4], o[5]).good()) {
      frame.orientation = o;
    }
    auto* measures = group<FGPixelMeasures>(fg, f, DcmFGTypes::EFG_PIXELMEASURES);
    Float64 between = 0, along = 0;
    if (measures && measures->getPixelSpacing(between, 0).good() &&
        measures->getPixelSpacing(along, 1).good()) {
      frame.pixelSpacing = std::array<double, 2>{between, along};
    }
    if (f == 0 && measures) {
      Float64 v = 0;
      if (measures->getSpacingBetweenSlices(v).good()) {
        layout.spacingBetweenSlices = std::abs(v);
      }
      if (measures->getSliceThickness(v).good()) {
        layout.sliceThickness = v;
      }
    }
    const char* missing = !frame.position       ? "Plane Position (ImagePositionPatient)"
                          : !frame.orientation  ? "Plane Orientation (ImageOrientationPatient)"
                          : !frame.pixelSpacing ? "Pixel Measures (PixelSpacing)"
                                                : nullptr;
    if (missing) {
      throw Error(ErrorKind::InvalidInput, where,
                  frameName(layout, f) + " has no " + missing + ", so it cannot be placed");
    }
  }
  return layout;
}

ImageGeometry deduceDicomSegGeometry(const DicomSegLayout& layout, const std::string& where) {
  if (layout.frames.empty()) {
    throw Error(ErrorKind::InvalidInput, where, "the segmentation has no frames");
  }
  const DicomSegFrame& first = layout.frames.front();
  const auto& o = *first.orientation;
  const Vec3 row = normalized({o[0], o[1], o[2]});
  const Vec3 column = normalized({o[3], o[4], o[5]});
  const Vec3 normal = normalized(cross(row, column));
  std::vector<double> depths;
  for (std::size_t f = 0; f < layout.frames.size(); ++f) {
    const DicomSegFrame& frame = layout.frames[f];
    if (!sameOrientation(*frame.orientation, row, column)) {
      throw Error(ErrorKind::InvalidInput, where,
                  frameName(layout, f) + " has orientation " +
                      joined(frame.orientation->data(), 6) + " but frame 1 has " +
                      joined(o.data(), 6) + "; such a SEG needs a target grid");
    }
    if (!sameSpacing((*frame.pixelSpacing)[0], (*first.pixelSpacing)[0]) ||
        !sameSpacing((*frame.pixelSpacing)[1], (*first.pixelSpacing)[1])) {
      throw Error(ErrorKind::InvalidInput, where,
                  frameName(layout, f) + " has pixel spacing " +
                      joined(frame.pixelSpacing->data(), 2, " mm") + " but frame 1 has " +
                      joined(first.pixelSpacing->data(), 2, " mm"));
    }
    depths.push_back(dot(*frame.position, normal));
  }
  std::sort(depths.begin(), depths.end());
  double gap = 0;
  for (std::size_t i = 1; i < depths.size(); ++i) {
    const double d = depths[i] - depths[i - 1];
    if (d > 1e-3 && (gap == 0 || d < gap)) {
      gap = d;
    }
  }
  double spacing = layout.spacingBetweenSlices > 0 ? layout.spacingBetweenSlices : gap;
  if (spacing <= 0) {
    spacing = layout.sliceThickness > 0 ? layout.sliceThickness : 1.0;
  }
  const double extent = depths.back() - depths.front();
  const double slices = std::round(extent / spacing) + 1;
  if (slices > 100000) {
    throw Error(ErrorKind::InvalidInput, where,
                "frames span " + std::to_string(extent) + " mm at " + std::to_string(spacing) +
                    " mm spacing: too many slices for one grid");
  }
  const auto lowest = std::min_element(layout.frames.begin(), layout.frames.end(),
                                       [&](const auto& a, const auto& b) {
                                         return dot(*a.position, normal) < dot(*b.position, normal);
                                       });
  ImageGeometry g;
  g.size = {layout.columns, layout.rows, static_cast<std::size_t>(slices)};
  g.spacing = {(*first.pixelSpacing)[1], (*first.pixelSpacing)[0], spacing};
  g.origin = *lowest->position;
  for (int r = 0; r < 3; ++r) {
    g.direction[3 * r] = row[r];
    g.direction[3 * r + 1] = column[r];
    g.direction[3 * r + 2] = normal[r];
  }
  return g;
}

std::vector<std::size_t> placeDicomSegFrames(const DicomSegLayout& layout,
                                             const ImageGeometry& target,
                                             const std::string& where) {
  if (layout.columns != target.size[0] || layout.rows != target.size[1]) {
    throw Error(ErrorKind::InvalidInput, where,
                "frames are " + std::to_string(layout.columns) + "x" + std::to_string(layout.rows) +
                    " pixels (columns x rows) but the target's " + "slices are " +
                    std::to_string(target.size[0]) + "x" + std::to_string(target.size[1]));
  }
  const Vec3 row = target.axis(0);
  const Vec3 column = target.axis(1);
  const double targetAxes[6] = {row[0], row[1], row[2], column[0], column[1], column[2]};
  const double targetSpacing[2] = {target.spacing[1], target.spacing[0]};
  std::vector<std::size_t> slices(layout.frames.size());
  for (std::size_t f = 0; f < layout.frames.size(); ++f) {
    const DicomSegFrame& frame = layout.frames[f];
    if (!sameOrientation(*frame.orientation, row, column)) {
      throw Error(ErrorKind::InvalidInput, where,
                  frameName(layout, f) + " has orientation " +
                      joined(frame.orientation->data(), 6) + " but the target's is " +
                      joined(targetAxes, 6) + " (row, then column cosines)");
    }
    if (!sameSpacing((*frame.pixelSpacing)[0], targetSpacing[0]) ||
        !sameSpacing((*frame.pixelSpacing)[1], targetSpacing[1])) {
      throw Error(ErrorKind::InvalidInput, where,
                  frameName(layout, f) + " has pixel spacing " +
                      joined(frame.pixelSpacing->data(), 2, " mm") + " but the target's is " +
                      joined(targetSpacing, 2, " mm") + " (between rows, between columns)");
    }
    const Vec3 index = target.worldToIndex(*frame.position);
    const std::string at = frameName(layout, f) + " at ImagePositionPatient " +
                           joined(frame.position->data(), 3, " mm");
    if (std::abs(index[0]) > kIndexTolerance || std::abs(index[1]) > kIndexTolerance) {
      throw Error(ErrorKind::InvalidInput, where,
                  at + " is shifted in-plane from the target grid by " +
                      std::to_string(index[0] * target.spacing[0]) + " mm along the rows and " +
                      std::to_string(index[1] * target.spacing[1]) + " mm along the columns");
    }
    const double k = std::round(index[2]);
    if (std::abs(index[2] - k) > kIndexTolerance) {
      throw Error(ErrorKind::InvalidInput, where,
                  at + " falls between target slices " +
                      std::to_string(static_cast<long>(std::floor(index[2]))) + " and " +
                      std::to_string(static_cast<long>(std::floor(index[2])) + 1) +
                      " (slice index " + std::to_string(index[2]) + ")");
    }
    if (k < 0 || k >= static_cast<double>(target.size[2])) {
      throw Error(ErrorKind::InvalidInput, where,
                  at + " lies outside the target's " + std::to_string(target.size[2]) +
                      " slices (slice index " + std::to_string(static_cast<long>(k)) + ")");
    }
    slices[f] = static_cast<std::size_t>(k);
  }
  return slices;
}

}  // namespace delineate::core
