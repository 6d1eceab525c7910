#include "core/measure/SegmentMeasurements.h"

#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <sstream>

#include "core/Error.h"

namespace delineate::core {

namespace {

struct Accumulator {
  std::size_t n = 0;
  double sum = 0, sum2 = 0;
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  std::vector<Vec3> surface;  // world positions of voxels on the segment's boundary
};

// Directions spread over a half sphere (a Fibonacci lattice): extreme points along each are the
// candidates for the diameter's end points.
std::vector<Vec3> directions(int count) {
  std::vector<Vec3> out;
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < count; ++i) {
    const double z = 1.0 - (i + 0.5) / count;  // upper half only: opposite directions are the same
    const double r = std::sqrt(1.0 - z * z);
    out.push_back({r * std::cos(golden * i), r * std::sin(golden * i), z});
  }
  return out;
}

double diameter(const std::vector<Vec3>& pts) {
  if (pts.size() < 2) {
    return 0;
  }
  std::vector<Vec3> candidates;
  if (pts.size() <= 600) {
    candidates = pts;
  } else {
    for (const Vec3& d : directions(300)) {
      std::size_t lo = 0, hi = 0;
      double vlo = dot(pts[0], d), vhi = vlo;
      for (std::size_t i = 1; i < pts.size(); ++i) {
        const double v = dot(pts[i], d);
        if (v < vlo) {
          vlo = v;
          lo = i;
        }
        if (v > vhi) {
          vhi = v;
          hi = i;
        }
      }
      candidates.push_back(pts[lo]);
      candidates.push_back(pts[hi]);
    }
  }
  double best = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    for (std::size_t j = i + 1; j < candidates.size(); ++j) {
      const Vec3 d{candidates[i][0] - candidates[j][0], candidates[i][1] - candidates[j][1],
                   candidates[i][2] - candidates[j][2]};
      best = std::max(best, dot(d, d));
    }
  }
  return std::sqrt(best);
}

}  // namespace

std::vector<SegmentMeasurement> measureSegments(const LabelMap& labels, const Volume* image,
                                                ProgressSink& progress) {
  const ImageGeometry& g = labels.geometry();
  if (image && !image->geometry().sameGrid(g)) {
    throw Error(ErrorKind::InvalidInput, labels.name(),
                "image grid differs: " + g.differenceFrom(image->geometry()));
  }
  std::map<std::uint16_t, Accumulator> acc;
  const std::uint16_t* lab = labels.data();
  const Size3& s = g.size;
  for (std::size_t k = 0; k < s[2]; ++k) {
    if (k % 8 == 0) {
      progress.throwIfCancelled();
      progress.report(0.8 * double(k) / double(s[2]), "Measuring segments");
    }
    for (std::size_t j = 0; j < s[1]; ++j) {
      const std::size_t row = labels.index(0, j, k);
      for (std::size_t i = 0; i < s[0]; ++i) {
        const std::uint16_t v = lab[row + i];
        if (v == 0) {
          continue;
        }
        Accumulator& a = acc[v];
        ++a.n;
        if (image) {
          const double x = image->valueAt(i, j, k);
          a.sum += x;
          a.sum2 += x * x;
          a.lo = std::min(a.lo, x);
          a.hi = std::max(a.hi, x);
        }
        const bool boundary = i == 0 || j == 0 || k == 0 || i + 1 == s[0] || j + 1 == s[1] ||
                              k + 1 == s[2] || lab[row + i - 1] != v || lab[row + i + 1] != v ||
                              lab[row + i - s[0]] != v || lab[row + i + s[0]] != v ||
                              lab[row + i - s[0] * s[1]] != v || lab[row + i + s[0] * s[1]] != v;
        if (boundary) {
          a.surface.push_back(g.indexToWorld({double(i), double(j), double(k)}));
        }
      }
    }
  }
  const double voxelMl = g.spacing[0] * g.spacing[1] * g.spacing[2] / 1000.0;
  std::vector<SegmentMeasurement> out;
  for (const Segment& seg : labels.segments()) {
    SegmentMeasurement m;
    m.label = seg.label;
    m.name = seg.name;
    const auto it = acc.find(seg.label);
    if (it != acc.end()) {
      const Accumulator& a = it->second;
      m.voxels = a.n;
      m.volumeMl = double(a.n) * voxelMl;
      if (image) {
        m.mean = a.sum / double(a.n);
        m.sd =
            a.n > 1 ? std::sqrt(std::max(0.0, (a.sum2 - a.sum * m.mean) / double(a.n - 1))) : 0.0;
        m.min = a.lo;
        m.max = a.hi;
      }
      m.largestDiameterMm = diameter(a.surface);
    }
    out.push_back(std::move(m));
  }
  progress.report(1.0, "Measured");
  return out;
}

std::string measurementsToTsv(const std::vector<SegmentMeasurement>& rows) {
  std::ostringstream s;
  s << "Label\tSegment\tVoxels\tVolume (ml)\tMean\tSD\tMin\tMax\tLargest diameter (mm)\n";
  s.setf(std::ios::fixed);
  for (const auto& r : rows) {
    s.precision(3);
    s << r.label << '\t' << r.name << '\t' << r.voxels << '\t' << r.volumeMl << '\t';
    s.precision(1);
    s << r.mean << '\t' << r.sd << '\t' << r.min << '\t' << r.max << '\t' << r.largestDiameterMm
      << '\n';
  }
  return s.str();
}

}  // namespace delineate::core
