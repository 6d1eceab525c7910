#include "core/ai/ClickIndex.h"

#include <cmath>

#include "core/Error.h"

namespace delineate::core::ai {

namespace {

constexpr double kFar = 9007199254740992.0;  // 2^53: every integer below is exact in a double

}  // namespace

ClickIndex clickIndex(const ImageGeometry& target, const Vec3& worldLps) {
  const Vec3 continuous = target.worldToIndex(worldLps);
  ClickIndex out;
  out.inside = true;
  for (int a = 0; a < 3; ++a) {
    double r = std::floor(continuous[a] + 0.5);  // halves round up, like Math.round
    if (!std::isfinite(r) || std::abs(r) > kFar) {
      out.inside = false;
      r = std::isnan(r) ? 0.0 : std::copysign(kFar, r);
    }
    out.ijk[a] = static_cast<std::int64_t>(r);
    if (out.ijk[a] < 0 || static_cast<std::uint64_t>(out.ijk[a]) >= target.size[a]) {
      out.inside = false;
    }
  }
  return out;
}

std::optional<VoxelIndex> clickIndexInside(const ImageGeometry& target, const Vec3& worldLps) {
  const ClickIndex c = clickIndex(target, worldLps);
  return c.inside ? std::optional<VoxelIndex>(c.ijk) : std::nullopt;
}

ImageGeometry geometryFromRasAffine(const Size3& size, const std::array<double, 16>& indexToRas) {
  // LPS = diag(-1, -1, 1) * RAS, for the linear part and the translation alike.
  static const double flip[3] = {-1.0, -1.0, 1.0};
  ImageGeometry g;
  g.size = size;
  for (int c = 0; c < 3; ++c) {
    double length = 0;
    for (int r = 0; r < 3; ++r) {
      length += indexToRas[4 * r + c] * indexToRas[4 * r + c];
    }
    length = std::sqrt(length);
    if (!(length > 0) || !std::isfinite(length)) {
      throw Error(ErrorKind::InvalidInput, {},
                  "index-to-RAS matrix column " + std::to_string(c) + " has no length");
    }
    g.spacing[c] = length;
    for (int r = 0; r < 3; ++r) {
      g.direction[3 * r + c] = flip[r] * indexToRas[4 * r + c] / length;
    }
  }
  for (int r = 0; r < 3; ++r) {
    g.origin[r] = flip[r] * indexToRas[4 * r + 3];
  }
  return g;
}

ImageGeometry withFlippedAxes(const ImageGeometry& geometry, const std::array<bool, 3>& flip) {
  ImageGeometry g = geometry;
  Vec3 firstVoxel{0, 0, 0};
  for (int a = 0; a < 3; ++a) {
    if (flip[a]) {
      firstVoxel[a] = geometry.size[a] > 0 ? static_cast<double>(geometry.size[a] - 1) : 0.0;
      for (int r = 0; r < 3; ++r) {
        g.direction[3 * r + a] = -geometry.direction[3 * r + a];
      }
    }
  }
  g.origin = geometry.indexToWorld(firstVoxel);
  return g;
}

}  // namespace delineate::core::ai
