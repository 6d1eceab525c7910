#include "core/model/ImageGeometry.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "core/Error.h"

namespace delineate::core {

std::size_t ImageGeometry::voxelCount() const {
  std::size_t n = 1;
  for (std::size_t s : size) {
    if (s != 0 && n > std::numeric_limits<std::size_t>::max() / s) {
      throw Error(ErrorKind::TooLarge, {}, "voxel count overflows");
    }
    n *= s;
  }
  return n;
}

Vec3 ImageGeometry::indexToWorld(const Vec3& ijk) const {
  Vec3 out = origin;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      out[r] += direction[3 * r + c] * spacing[c] * ijk[c];
    }
  }
  return out;
}

Vec3 ImageGeometry::worldToIndex(const Vec3& world) const {
  // direction is orthonormal for every image we accept, so its inverse is its transpose; but
  // stay exact for sheared (gantry-tilted) input by solving with the full inverse.
  const Mat3& m = direction;
  const double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                     m[2] * (m[3] * m[7] - m[4] * m[6]);
  Mat3 inv{(m[4] * m[8] - m[5] * m[7]) / det, (m[2] * m[7] - m[1] * m[8]) / det,
           (m[1] * m[5] - m[2] * m[4]) / det, (m[5] * m[6] - m[3] * m[8]) / det,
           (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
           (m[3] * m[7] - m[4] * m[6]) / det, (m[1] * m[6] - m[0] * m[7]) / det,
           (m[0] * m[4] - m[1] * m[3]) / det};
  const Vec3 d{world[0] - origin[0], world[1] - origin[1], world[2] - origin[2]};
  Vec3 out{};
  for (int r = 0; r < 3; ++r) {
    out[r] = (inv[3 * r] * d[0] + inv[3 * r + 1] * d[1] + inv[3 * r + 2] * d[2]) / spacing[r];
  }
  return out;
}

std::array<Vec3, 2> ImageGeometry::worldBounds() const {
  Vec3 lo{std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
          std::numeric_limits<double>::max()};
  Vec3 hi{-lo[0], -lo[1], -lo[2]};
  for (int corner = 0; corner < 8; ++corner) {
    Vec3 ijk{};
    for (int a = 0; a < 3; ++a) {
      const double last = size[a] > 0 ? static_cast<double>(size[a] - 1) : 0.0;
      ijk[a] = (corner >> a) & 1 ? last : 0.0;
    }
    const Vec3 p = indexToWorld(ijk);
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], p[a]);
      hi[a] = std::max(hi[a], p[a]);
    }
  }
  return {lo, hi};
}

char patientDirectionLetter(const Vec3& d) {
  int best = 0;
  for (int a = 1; a < 3; ++a) {
    if (std::abs(d[a]) > std::abs(d[best])) {
      best = a;
    }
  }
  static const char pos[3] = {'L', 'P', 'S'};
  static const char neg[3] = {'R', 'A', 'I'};
  return d[best] >= 0 ? pos[best] : neg[best];
}

std::string ImageGeometry::orientationCode() const {
  std::string code(3, ' ');
  for (int a = 0; a < 3; ++a) {
    code[a] = patientDirectionLetter(axis(a));
  }
  return code;
}

bool ImageGeometry::sameGrid(const ImageGeometry& other, double tolerance) const {
  return differenceFrom(other, tolerance).empty();
}

std::string ImageGeometry::differenceFrom(const ImageGeometry& o, double tol) const {
  std::ostringstream s;
  if (size != o.size) {
    s << "size " << size[0] << "x" << size[1] << "x" << size[2] << " vs " << o.size[0] << "x"
      << o.size[1] << "x" << o.size[2];
    return s.str();
  }
  for (int a = 0; a < 3; ++a) {
    if (std::abs(spacing[a] - o.spacing[a]) > tol * std::max(1.0, std::abs(spacing[a]))) {
      s << "spacing " << spacing[0] << "," << spacing[1] << "," << spacing[2] << " mm vs "
        << o.spacing[0] << "," << o.spacing[1] << "," << o.spacing[2] << " mm";
      return s.str();
    }
  }
  for (int a = 0; a < 3; ++a) {
    if (std::abs(origin[a] - o.origin[a]) > std::max(tol, 1e-3 * spacing[a])) {
      s << "origin " << origin[0] << "," << origin[1] << "," << origin[2] << " mm vs "
        << o.origin[0] << "," << o.origin[1] << "," << o.origin[2] << " mm";
      return s.str();
    }
  }
  for (int k = 0; k < 9; ++k) {
    if (std::abs(direction[k] - o.direction[k]) > tol) {
      s << "direction " << orientationCode() << " vs " << o.orientationCode()
        << " (cosines differ by " << std::abs(direction[k] - o.direction[k]) << ")";
      return s.str();
    }
  }
  return {};
}

Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

Vec3 normalized(const Vec3& v) {
  const double n = std::sqrt(dot(v, v));
  if (n == 0) {
    return v;
  }
  return {v[0] / n, v[1] / n, v[2] / n};
}

}  // namespace delineate::core
