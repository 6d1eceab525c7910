#include "viewers/SliceGeometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace delineate::viewers {

using core::Vec3;

const char* toString(SliceOrientation orientation) {
  switch (orientation) {
    case SliceOrientation::Axial:
      return "Axial";
    case SliceOrientation::Coronal:
      return "Coronal";
    case SliceOrientation::Sagittal:
      break;
  }
  return "Sagittal";
}

SliceAxes sliceAxes(SliceOrientation orientation) {
  // LPS: +x = patient left, +y = posterior, +z = superior.
  switch (orientation) {
    case SliceOrientation::Axial:
      return {{1, 0, 0}, {0, -1, 0}, {0, 0, 1}};
    case SliceOrientation::Coronal:
      return {{1, 0, 0}, {0, 0, 1}, {0, -1, 0}};
    case SliceOrientation::Sagittal:
      break;
  }
  return {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}};
}

ScreenLetters screenLetters(SliceOrientation orientation) {
  const SliceAxes a = sliceAxes(orientation);
  const Vec3 left{-a.right[0], -a.right[1], -a.right[2]};
  const Vec3 down{-a.up[0], -a.up[1], -a.up[2]};
  return {core::patientDirectionLetter(left), core::patientDirectionLetter(a.right),
          core::patientDirectionLetter(a.up), core::patientDirectionLetter(down)};
}

AlignedAxis alignedAxis(const core::ImageGeometry& g, const Vec3& direction) {
  AlignedAxis best;
  double bestDot = -1;
  for (int a = 0; a < 3; ++a) {
    const double d = core::dot(core::normalized(g.axis(a)), direction);
    if (std::abs(d) > bestDot) {
      bestDot = std::abs(d);
      best = {a, d >= 0};
    }
  }
  return best;
}

int sliceCount(const core::ImageGeometry& g, SliceOrientation orientation) {
  return static_cast<int>(g.size[alignedAxis(g, sliceAxes(orientation).normal).axis]);
}

int sliceIndex(const core::ImageGeometry& g, SliceOrientation orientation, const Vec3& world) {
  const AlignedAxis a = alignedAxis(g, sliceAxes(orientation).normal);
  const int n = static_cast<int>(g.size[a.axis]);
  if (n <= 0) {
    return 0;
  }
  const int index =
      std::clamp(static_cast<int>(std::lround(g.worldToIndex(world)[a.axis])), 0, n - 1);
  return a.positive ? index : n - 1 - index;
}

Vec3 moveToSlice(const core::ImageGeometry& g, SliceOrientation orientation, const Vec3& world,
                 int index) {
  const SliceAxes axes = sliceAxes(orientation);
  const AlignedAxis a = alignedAxis(g, axes.normal);
  const int n = static_cast<int>(g.size[a.axis]);
  if (n <= 0) {
    return world;
  }
  index = std::clamp(index, 0, n - 1);
  const int imageIndex = a.positive ? index : n - 1 - index;
  // Move along the view normal (not along the image axis) so the in-plane position stays put.
  Vec3 ijk = g.worldToIndex(world);
  const Vec3 target = [&] {
    Vec3 t = ijk;
    t[a.axis] = imageIndex;
    return g.indexToWorld(t);
  }();
  const double delta = core::dot(target, axes.normal) - core::dot(world, axes.normal);
  return {world[0] + delta * axes.normal[0], world[1] + delta * axes.normal[1],
          world[2] + delta * axes.normal[2]};
}

std::array<long long, 3> nearestVoxel(const core::ImageGeometry& g, const Vec3& world) {
  const Vec3 ijk = g.worldToIndex(world);
  std::array<long long, 3> out{};
  for (int a = 0; a < 3; ++a) {
    const long long last = g.size[a] > 0 ? static_cast<long long>(g.size[a]) - 1 : 0;
    out[a] = std::clamp(static_cast<long long>(std::llround(ijk[a])), 0LL, last);
  }
  return out;
}

bool containsVoxel(const core::ImageGeometry& g, const Vec3& world) {
  const Vec3 ijk = g.worldToIndex(world);
  for (int a = 0; a < 3; ++a) {
    if (!(ijk[a] > -0.5 && ijk[a] < static_cast<double>(g.size[a]) - 0.5)) {
      return false;
    }
  }
  return true;
}

Vec3 snapToVoxel(const core::ImageGeometry& g, const Vec3& world) {
  const auto v = nearestVoxel(g, world);
  return g.indexToWorld(
      {static_cast<double>(v[0]), static_cast<double>(v[1]), static_cast<double>(v[2])});
}

std::array<double, 4> screenBounds(const core::ImageGeometry& g, SliceOrientation orientation) {
  const SliceAxes axes = sliceAxes(orientation);
  std::array<double, 4> b{std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                          std::numeric_limits<double>::max(), -std::numeric_limits<double>::max()};
  for (int corner = 0; corner < 8; ++corner) {
    Vec3 ijk{};
    for (int a = 0; a < 3; ++a) {
      ijk[a] = ((corner >> a) & 1) ? static_cast<double>(g.size[a]) - 0.5 : -0.5;
    }
    const Vec3 p = g.indexToWorld(ijk);
    const double u = core::dot(p, axes.right);
    const double v = core::dot(p, axes.up);
    b[0] = std::min(b[0], u);
    b[1] = std::max(b[1], u);
    b[2] = std::min(b[2], v);
    b[3] = std::max(b[3], v);
  }
  return b;
}

std::array<double, 16> resliceAxes(const core::ImageGeometry& g, SliceOrientation orientation,
                                   double s) {
  const SliceAxes axes = sliceAxes(orientation);
  auto q = [&g](const Vec3& world) {
    const Vec3 ijk = g.worldToIndex(world);
    return Vec3{ijk[0] * g.spacing[0], ijk[1] * g.spacing[1], ijk[2] * g.spacing[2]};
  };
  const Vec3 q0 = q({0, 0, 0});
  const Vec3 columns[3] = {q(axes.right), q(axes.up), q(axes.normal)};
  const Vec3 t = q({s * axes.normal[0], s * axes.normal[1], s * axes.normal[2]});
  std::array<double, 16> m{};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      m[4 * r + c] = columns[c][r] - q0[r];
    }
    m[4 * r + 3] = t[r];
  }
  m[15] = 1;
  return m;
}

double spacingAlong(const core::ImageGeometry& g, const Vec3& direction) {
  return g.spacing[alignedAxis(g, direction).axis];
}

}  // namespace delineate::viewers

namespace delineate::viewers {

SliceGrid sliceGrid(const core::ImageGeometry& g, SliceOrientation orientation) {
  const SliceAxes axes = sliceAxes(orientation);
  const auto b = screenBounds(g, orientation);
  SliceGrid grid;
  grid.du = spacingAlong(g, axes.right);
  grid.dv = spacingAlong(g, axes.up);
  grid.nu = std::clamp(static_cast<int>(std::lround((b[1] - b[0]) / grid.du)), 1, 8192);
  grid.nv = std::clamp(static_cast<int>(std::lround((b[3] - b[2]) / grid.dv)), 1, 8192);
  grid.u0 = b[0] + grid.du / 2;
  grid.v0 = b[2] + grid.dv / 2;
  return grid;
}

std::optional<PixelRect> projectBox(const core::ImageGeometry& g, SliceOrientation orientation,
                                    double s, const SliceGrid& grid, const core::VoxelBox& box,
                                    int margin) {
  if (box.empty()) {
    return std::nullopt;
  }
  const SliceAxes axes = sliceAxes(orientation);
  double umin = 1e300, umax = -1e300, vmin = 1e300, vmax = -1e300, wmin = 1e300, wmax = -1e300;
  for (int corner = 0; corner < 8; ++corner) {
    Vec3 ijk{};
    for (int a = 0; a < 3; ++a) {
      // Voxel edges, not centres: the box covers [lo - 0.5, hi - 0.5] in index units.
      ijk[a] = ((corner >> a) & 1) ? static_cast<double>(box.hi[a]) - 0.5
                                   : static_cast<double>(box.lo[a]) - 0.5;
    }
    const Vec3 p = g.indexToWorld(ijk);
    const double u = core::dot(p, axes.right), v = core::dot(p, axes.up);
    const double w = core::dot(p, axes.normal);
    umin = std::min(umin, u);
    umax = std::max(umax, u);
    vmin = std::min(vmin, v);
    vmax = std::max(vmax, v);
    wmin = std::min(wmin, w);
    wmax = std::max(wmax, w);
  }
  const double eps = 1e-6 * (1 + std::abs(s));
  if (s < wmin - eps || s > wmax + eps) {
    return std::nullopt;
  }
  // Pixels whose centre lies in the box's extent (ties included: nearest-neighbour sampling
  // may round either way there).
  constexpr double tie = 1e-6;
  PixelRect r;
  r.x0 = std::max(0, static_cast<int>(std::ceil((umin - grid.u0) / grid.du - tie)) - margin);
  r.x1 = std::min(grid.nu - 1,
                  static_cast<int>(std::floor((umax - grid.u0) / grid.du + tie)) + margin);
  r.y0 = std::max(0, static_cast<int>(std::ceil((vmin - grid.v0) / grid.dv - tie)) - margin);
  r.y1 = std::min(grid.nv - 1,
                  static_cast<int>(std::floor((vmax - grid.v0) / grid.dv + tie)) + margin);
  if (r.empty()) {
    return std::nullopt;
  }
  return r;
}

}  // namespace delineate::viewers
