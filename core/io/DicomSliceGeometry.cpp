#include "core/io/DicomSliceGeometry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <type_traits>

#include "core/Error.h"

namespace delineate::core {

namespace {

// Slices closer than this along the normal are at "the same position".
constexpr double kSamePositionMm = 0.01;

std::string mm(double v) {
  std::ostringstream s;
  s.precision(4);
  s << v << " mm";
  return s.str();
}

std::string fileList(const std::vector<std::string>& files) {
  std::string out;
  for (std::size_t i = 0; i < files.size() && i < 3; ++i) {
    out += (i ? ", " : "") + files[i];
  }
  if (files.size() > 3) {
    out += " and " + std::to_string(files.size() - 3) + " more";
  }
  return out;
}

Vec3 add(const Vec3& a, const Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
Vec3 sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3 scale(const Vec3& a, double s) {
  return {a[0] * s, a[1] * s, a[2] * s};
}
double length(const Vec3& a) {
  return std::sqrt(dot(a, a));
}

bool placementLess(const DicomSlicePlacement& a, const DicomSlicePlacement& b) {
  const int ia = a.instanceNumber.value_or(0);
  const int ib = b.instanceNumber.value_or(0);
  if (ia != ib) {
    return ia < ib;
  }
  if (a.file != b.file) {
    return a.file < b.file;
  }
  return a.frame < b.frame;
}

void setDirection(ImageGeometry& g, const Vec3& row, const Vec3& col, const Vec3& slice) {
  for (int r = 0; r < 3; ++r) {
    g.direction[3 * r + 0] = row[r];
    g.direction[3 * r + 1] = col[r];
    g.direction[3 * r + 2] = slice[r];
  }
}

}  // namespace

void unshearDicomSlices(VoxelBuffer& voxels, const ImageGeometry& g, const Vec3& shear) {
  const std::size_t nx = g.size[0], ny = g.size[1], nz = g.size[2];
  const Vec3 row = g.axis(0), col = g.axis(1);
  // The shift of one slice, in pixels.
  const double sx = dot(shear, row) / g.spacing[0];
  const double sy = dot(shear, col) / g.spacing[1];
  dispatchScalar(voxels.type(), [&](auto t) {
    using T = decltype(t);
    T* p = voxels.as<T>();
    const std::size_t n = nx * ny;
    const T fill = *std::min_element(p, p + voxels.count());
    std::vector<T> source(n);
    for (std::size_t k = 1; k < nz; ++k) {
      T* slice = p + k * n;
      std::copy(slice, slice + n, source.begin());
      // Output pixel (i, j) shows the file's pixel at (i - dx, j - dy).
      const double dx = sx * static_cast<double>(k);
      const double dy = sy * static_cast<double>(k);
      for (std::size_t j = 0; j < ny; ++j) {
        const double y = static_cast<double>(j) - dy;
        const double y0 = std::floor(y);
        const double fy = y - y0;
        for (std::size_t i = 0; i < nx; ++i) {
          const double x = static_cast<double>(i) - dx;
          const double x0 = std::floor(x);
          const double fx = x - x0;
          auto at = [&](double xi, double yi) -> double {
            if (xi < 0 || yi < 0 || xi > static_cast<double>(nx - 1) ||
                yi > static_cast<double>(ny - 1)) {
              return static_cast<double>(fill);
            }
            return static_cast<double>(
                source[static_cast<std::size_t>(xi) + nx * static_cast<std::size_t>(yi)]);
          };
          const double v = (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) +
                           fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
          if constexpr (std::is_floating_point_v<T>) {
            slice[i + nx * j] = static_cast<T>(v);
          } else {
            const double r =
                std::clamp(std::round(v), static_cast<double>(std::numeric_limits<T>::lowest()),
                           static_cast<double>(std::numeric_limits<T>::max()));
            slice[i + nx * j] = static_cast<T>(r);
          }
        }
      }
    }
  });
}

bool sameOrientation(const std::array<double, 6>& a, const std::array<double, 6>& b) {
  for (std::size_t i = 0; i < 6; ++i) {
    if (std::abs(a[i] - b[i]) > 1e-3) {
      return false;
    }
  }
  return true;
}

std::string planeName(const std::array<double, 6>& o) {
  const Vec3 n = normalized(cross({o[0], o[1], o[2]}, {o[3], o[4], o[5]}));
  const double ax = std::abs(n[0]), ay = std::abs(n[1]), az = std::abs(n[2]);
  const double best = std::max({ax, ay, az});
  if (best < 0.95) {
    return "oblique";
  }
  return best == az ? "axial" : best == ay ? "coronal" : "sagittal";
}

DicomStackLayout layoutDicomSlices(const std::vector<DicomSlicePlacement>& frames, std::size_t rows,
                                   std::size_t columns, double fallbackSpacing, double gantryTilt) {
  if (frames.empty()) {
    throw Error(ErrorKind::InvalidInput, {}, "no image frames to place");
  }
  DicomStackLayout out;
  ImageGeometry& g = out.geometry;
  g.size = {columns, rows, 0};

  // Orientation: every frame must share the first one's.
  const DicomSlicePlacement* ref = nullptr;
  for (const auto& f : frames) {
    if (f.orientation) {
      ref = &f;
      break;
    }
  }
  std::array<double, 6> o{1, 0, 0, 0, 1, 0};
  if (ref) {
    o = *ref->orientation;
    for (const auto& f : frames) {
      if (f.orientation && !sameOrientation(*f.orientation, o)) {
        std::ostringstream s;
        s << "image orientation " << planeName(*f.orientation) << " differs from " << planeName(o)
          << " in " << ref->file
          << ": the files do not form one volume (load each orientation separately)";
        throw Error(ErrorKind::InvalidInput, f.file, s.str());
      }
    }
  } else {
    out.orientationKnown = false;
    if (frames.size() > 1) {
      out.warnings.push_back("no ImageOrientationPatient: assumed axial slices");
    }
  }
  const Vec3 row{o[0], o[1], o[2]};
  const Vec3 col{o[3], o[4], o[5]};
  const Vec3 normal = normalized(cross(row, col));

  // In-plane pixel spacing.
  std::optional<std::array<double, 2>> ps;
  bool spacingVaries = false;
  for (const auto& f : frames) {
    if (!f.pixelSpacing) {
      continue;
    }
    if (!ps) {
      ps = f.pixelSpacing;
    } else if (std::abs((*ps)[0] - (*f.pixelSpacing)[0]) > 1e-3 * (*ps)[0] ||
               std::abs((*ps)[1] - (*f.pixelSpacing)[1]) > 1e-3 * (*ps)[1]) {
      spacingVaries = true;
    }
  }
  if (spacingVaries) {
    out.warnings.push_back("pixel spacing differs between slices: used the first slice's");
  }
  if (ps) {
    g.spacing[0] = (*ps)[1];
    g.spacing[1] = (*ps)[0];
  } else {
    out.warnings.push_back("no PixelSpacing: assumed 1 mm pixels");
  }
  const double thickness = frames.front().sliceThickness;
  const double minPixel = std::min(g.spacing[0], g.spacing[1]);

  const bool allPositioned = std::all_of(frames.begin(), frames.end(),
                                         [](const auto& f) { return f.position.has_value(); });
  if (!allPositioned) {
    // Stack in instance-number order.
    out.order.resize(frames.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
      out.order[i] = i;
    }
    std::stable_sort(out.order.begin(), out.order.end(), [&](std::size_t a, std::size_t b) {
      return placementLess(frames[a], frames[b]);
    });
    const double dz = fallbackSpacing > 0 ? fallbackSpacing : thickness > 0 ? thickness : 1.0;
    g.size[2] = frames.size();
    g.spacing[2] = dz;
    const auto& first = frames[out.order.front()];
    g.origin = first.position.value_or(Vec3{0, 0, 0});
    setDirection(g, row, col, normal);
    if (frames.size() > 1) {
      out.warnings.push_back(std::to_string(frames.size()) +
                             " slices without ImagePositionPatient: stacked in instance-number "
                             "order, " +
                             mm(dz) + " apart");
    }
    return out;
  }

  // Sort along the normal; ties by instance number, file and frame.
  std::vector<std::size_t> idx(frames.size());
  std::vector<double> dist(frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    idx[i] = i;
    dist[i] = dot(*frames[i].position, normal);
  }
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    if (dist[a] != dist[b]) {
      return dist[a] < dist[b];
    }
    return placementLess(frames[a], frames[b]);
  });
  // Regroup near-equal distances so that ties order by instance number, then keep one per position.
  std::vector<std::size_t> kept;
  std::vector<std::string> skipped;
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t j = i + 1;
    while (j < idx.size() && dist[idx[j]] - dist[idx[i]] < kSamePositionMm) {
      ++j;
    }
    std::size_t best = idx[i];
    for (std::size_t k = i + 1; k < j; ++k) {
      if (placementLess(frames[idx[k]], frames[best])) {
        best = idx[k];
      }
    }
    for (std::size_t k = i; k < j; ++k) {
      if (idx[k] != best) {
        skipped.push_back(frames[idx[k]].file +
                          (frames[idx[k]].frame
                               ? " frame " + std::to_string(frames[idx[k]].frame + 1)
                               : std::string()));
      }
    }
    kept.push_back(best);
    i = j;
  }
  if (!skipped.empty()) {
    out.warnings.push_back(std::to_string(skipped.size()) +
                           " slice(s) share a position with another slice (a repeated "
                           "acquisition, echo or phase?): kept the first at each position, "
                           "skipped " +
                           fileList(skipped));
  }
  out.order = kept;
  const std::size_t m = kept.size();
  g.size[2] = m;
  g.origin = *frames[kept.front()].position;
  if (m == 1) {
    g.spacing[2] = fallbackSpacing > 0 ? fallbackSpacing : thickness > 0 ? thickness : 1.0;
    setDirection(g, row, col, normal);
    return out;
  }

  std::vector<double> d(m);
  for (std::size_t i = 0; i < m; ++i) {
    d[i] = dist[kept[i]];
  }
  std::vector<double> gaps(m - 1);
  for (std::size_t i = 0; i + 1 < m; ++i) {
    gaps[i] = d[i + 1] - d[i];
  }
  std::vector<double> sortedGaps = gaps;
  std::nth_element(sortedGaps.begin(), sortedGaps.begin() + sortedGaps.size() / 2,
                   sortedGaps.end());
  const double nominal = sortedGaps[sortedGaps.size() / 2];
  const double span = d.back() - d.front();
  const double mean = span / static_cast<double>(m - 1);

  // How far the regular grid puts each slice from where the file says it is.
  double maxError = 0;
  for (std::size_t i = 0; i < m; ++i) {
    maxError = std::max(maxError, std::abs(d[i] - (d.front() + mean * static_cast<double>(i))));
  }
  const double tolerance = 0.01 * nominal + 0.002;
  std::size_t missing = 0;
  std::size_t gapCount = 0;
  double largestGap = 0;
  std::size_t largestGapAt = 0;
  double minGap = gaps.front(), maxGap = gaps.front();
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    minGap = std::min(minGap, gaps[i]);
    maxGap = std::max(maxGap, gaps[i]);
    const double ratio = gaps[i] / nominal;
    if (ratio >= 1.5) {
      ++gapCount;
      missing += static_cast<std::size_t>(std::llround(ratio)) - 1;
      if (gaps[i] > largestGap) {
        largestGap = gaps[i];
        largestGapAt = i;
      }
    }
  }
  if (maxError > 0.25 * span && maxError > 2 * nominal) {
    throw Error(ErrorKind::InvalidInput, frames[kept[largestGapAt + 1]].file,
                "slice positions are too irregular for one volume (slices " + mm(nominal) +
                    " apart, but a gap of " + mm(largestGap > 0 ? largestGap : maxGap) +
                    "): a regular grid would misplace slices by up to " + mm(maxError));
  }
  if (gapCount > 0) {
    out.warnings.push_back("missing slices: " + std::to_string(gapCount) + " gap(s), about " +
                           std::to_string(missing) + " slice(s) missing; the largest gap is " +
                           mm(largestGap) + " after " + frames[kept[largestGapAt]].file +
                           " (nominal spacing " + mm(nominal) +
                           "); the volume uses the mean spacing " + mm(mean) +
                           ", so slices may be off by up to " + mm(maxError));
  } else if (maxGap - minGap > tolerance) {
    out.warnings.push_back("uneven slice spacing: from " + mm(minGap) + " to " + mm(maxGap) +
                           "; the volume uses the mean spacing " + mm(mean) +
                           ", so slices may be off by up to " + mm(maxError));
  }

  // Shear (gantry tilt): the step between slices leaves the normal.
  const Vec3 first = *frames[kept.front()].position;
  const Vec3 last = *frames[kept.back()].position;
  const Vec3 step = scale(sub(last, first), 1.0 / static_cast<double>(m - 1));
  const Vec3 inPlane = sub(step, scale(normal, dot(step, normal)));
  const double tilt = std::atan2(length(inPlane), dot(step, normal)) * 180.0 / std::numbers::pi;
  if (std::abs(tilt) > 0.1) {
    std::ostringstream s;
    s.precision(3);
    s << "gantry tilt of " << tilt << " degrees";
    if (gantryTilt != 0) {
      s << " (GantryDetectorTilt " << gantryTilt << ")";
    }
    const double shift = length(inPlane) * static_cast<double>(m - 1);
    s << ": each slice was shifted in-plane onto an orthogonal grid (bilinear resampling, up to "
      << shift << " mm)";
    out.warnings.push_back(s.str());
    out.shearPerSlice = inPlane;
  }
  setDirection(g, row, col, normal);
  g.spacing[2] = mean;

  // Slices should lie on one line (in-plane drift other than a constant shear is suspicious).
  double drift = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const Vec3 expected = add(first, scale(step, static_cast<double>(i)));
    const Vec3 off = sub(*frames[kept[i]].position, expected);
    drift = std::max(drift, length(sub(off, scale(normal, dot(off, normal)))));
  }
  if (drift > 0.5 * minPixel) {
    out.warnings.push_back("slice positions are not on one line: in-plane offsets up to " +
                           mm(drift));
  }
  return out;
}

}  // namespace delineate::core
