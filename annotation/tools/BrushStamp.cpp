#include "annotation/tools/BrushStamp.h"

#include <cmath>

namespace delineate::annotation {

using core::Vec3;

std::size_t stampBrush(core::LabelMapEdit& edit, const Vec3& centre, const Vec3& sliceNormal,
                       const BrushShape& shape, std::uint16_t value, const core::Volume* image,
                       std::optional<std::pair<double, double>> range) {
  const core::ImageGeometry& g = edit.map().geometry();
  const double r = shape.radiusMm;
  const Vec3 n = core::normalized(sliceNormal);
  // Half the slab thickness: half a voxel measured along the normal, so an axis-aligned disc is
  // exactly one slice and an oblique one has no holes.
  double half = 0;
  for (int a = 0; a < 3; ++a) {
    half += 0.5 * std::abs(core::dot(g.axis(a), n)) * g.spacing[a];
  }
  // Index-space bounds of the ball's bounding cube.
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p{centre[0] + ((corner & 1) ? r : -r), centre[1] + ((corner & 2) ? r : -r),
                 centre[2] + ((corner & 4) ? r : -r)};
    const Vec3 ijk = g.worldToIndex(p);
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], ijk[a]);
      hi[a] = std::max(hi[a], ijk[a]);
    }
  }
  long from[3], to[3];
  for (int a = 0; a < 3; ++a) {
    from[a] = std::max(0L, static_cast<long>(std::floor(lo[a])));
    to[a] = std::min(static_cast<long>(g.size[a]) - 1, static_cast<long>(std::ceil(hi[a])));
    if (from[a] > to[a]) {
      return 0;
    }
  }
  std::size_t changed = 0;
  const double r2 = r * r;
  for (long k = from[2]; k <= to[2]; ++k) {
    for (long j = from[1]; j <= to[1]; ++j) {
      for (long i = from[0]; i <= to[0]; ++i) {
        const Vec3 p = g.indexToWorld({double(i), double(j), double(k)});
        const Vec3 d{p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]};
        if (core::dot(d, d) > r2) {
          continue;
        }
        if (!shape.sphere && std::abs(core::dot(d, n)) > half) {
          continue;
        }
        if (image && range) {
          const double v = image->valueAt(std::size_t(i), std::size_t(j), std::size_t(k));
          if (v < range->first || v > range->second) {
            continue;
          }
        }
        changed += edit.write(std::size_t(i), std::size_t(j), std::size_t(k), value) ? 1 : 0;
      }
    }
  }
  return changed;
}

}  // namespace delineate::annotation
