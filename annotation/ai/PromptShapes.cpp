#include "annotation/ai/PromptShapes.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "annotation/ops/PolygonMask.h"

namespace delineate::annotation {

namespace {

using core::Vec3;

// The continuous index of `world`, with the slice axis set to `slice`.
Vec3 indexOnSlice(const core::ImageGeometry& grid, const Vec3& world, int axis, double slice) {
  Vec3 ijk = grid.worldToIndex(world);
  ijk[axis] = slice;
  return ijk;
}

bool inImage(const core::ImageGeometry& grid, long i, long j, long k) {
  return i >= 0 && j >= 0 && k >= 0 && static_cast<std::size_t>(i) < grid.size[0] &&
         static_cast<std::size_t>(j) < grid.size[1] && static_cast<std::size_t>(k) < grid.size[2];
}

std::optional<core::ai::Prompt> fromMask(const BoxMask& mask, core::ai::PromptKind kind,
                                         bool positive) {
  const BoxMask tight = mask.shrunkToContent();
  if (tight.box.empty()) {
    return std::nullopt;
  }
  core::ai::Prompt p;
  p.kind = kind;
  p.positive = positive;
  p.box = tight.box;
  p.mask = tight.bits;
  return p;
}

}  // namespace

std::vector<Vec3> rectangleOutline(const Vec3& a, const Vec3& b, const Vec3& normal) {
  // In-plane axes: the patient axis least along the normal, made orthogonal to it, and the one
  // orthogonal to both.
  int least = 0;
  for (int x = 1; x < 3; ++x) {
    if (std::abs(normal[x]) < std::abs(normal[least])) {
      least = x;
    }
  }
  Vec3 e{0, 0, 0};
  e[least] = 1;
  const double along = core::dot(e, normal);
  Vec3 u{e[0] - along * normal[0], e[1] - along * normal[1], e[2] - along * normal[2]};
  const double length = std::sqrt(core::dot(u, u));
  for (double& c : u) {
    c /= length;
  }
  const Vec3 v{normal[1] * u[2] - normal[2] * u[1], normal[2] * u[0] - normal[0] * u[2],
               normal[0] * u[1] - normal[1] * u[0]};
  const Vec3 d{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double du = core::dot(d, u), dv = core::dot(d, v);
  return {
      a,
      {a[0] + u[0] * du, a[1] + u[1] * du, a[2] + u[2] * du},
      {a[0] + u[0] * du + v[0] * dv, a[1] + u[1] * du + v[1] * dv, a[2] + u[2] * du + v[2] * dv},
      {a[0] + v[0] * dv, a[1] + v[1] * dv, a[2] + v[2] * dv}};
}

int sliceAxisFor(const core::ImageGeometry& grid, const Vec3& normal) {
  int best = 2;
  double bestDot = -1;
  for (int a = 0; a < 3; ++a) {
    const double d = std::abs(core::dot(grid.axis(a), normal));
    if (d > bestDot) {
      bestDot = d;
      best = a;
    }
  }
  return best;
}

std::optional<core::ai::Prompt> boxPrompt(const core::ImageGeometry& grid, const Vec3& from,
                                          const Vec3& to, const Vec3& normal, bool positive) {
  const int axis = sliceAxisFor(grid, normal);
  const double slice = std::round(grid.worldToIndex(from)[axis]);
  const Vec3 a = indexOnSlice(grid, from, axis, slice), b = indexOnSlice(grid, to, axis, slice);
  core::ai::Prompt p;
  p.kind = core::ai::PromptKind::Box;
  p.positive = positive;
  for (int x = 0; x < 3; ++x) {
    const double lo = std::max(0.0, std::round(std::min(a[x], b[x])));
    const double hi = std::min(double(grid.size[x]) - 1, std::round(std::max(a[x], b[x])));
    if (hi < lo) {
      return std::nullopt;  // outside the image along this axis
    }
    p.box.lo[x] = static_cast<std::size_t>(lo);
    p.box.hi[x] = static_cast<std::size_t>(hi) + 1;
  }
  return p;
}

std::optional<core::ai::Prompt> lassoPrompt(const core::ImageGeometry& grid,
                                            const std::vector<Vec3>& outline, const Vec3& normal,
                                            bool positive) {
  if (outline.size() < 3) {
    return std::nullopt;
  }
  // Along the grid axis, not the view's (oblique) normal: one slice of the grid.
  const int axis = sliceAxisFor(grid, normal);
  return fromMask(polygonMask(grid, outline, grid.axis(axis), false), core::ai::PromptKind::Lasso,
                  positive);
}

std::optional<core::ai::Prompt> scribblePrompt(const core::ImageGeometry& grid,
                                               const std::vector<Vec3>& stroke, const Vec3& normal,
                                               bool positive, int thickness) {
  if (stroke.empty()) {
    return std::nullopt;
  }
  const int axis = sliceAxisFor(grid, normal);
  const double slice = std::round(grid.worldToIndex(stroke.front())[axis]);
  if (slice < 0 || slice >= double(grid.size[axis])) {
    return std::nullopt;
  }
  // Sample the stroke every quarter voxel; each sample marks a square of `thickness` voxels in
  // the plane (the two axes other than the slice axis).
  std::vector<Vec3> samples;
  Vec3 previous = indexOnSlice(grid, stroke.front(), axis, slice);
  samples.push_back(previous);
  for (std::size_t n = 1; n < stroke.size(); ++n) {
    const Vec3 next = indexOnSlice(grid, stroke[n], axis, slice);
    const Vec3 step{next[0] - previous[0], next[1] - previous[1], next[2] - previous[2]};
    const double length = std::sqrt(core::dot(step, step));
    const int steps = std::max(1, static_cast<int>(std::ceil(length * 4)));
    for (int s = 1; s <= steps; ++s) {
      const double t = double(s) / steps;
      samples.push_back(
          {previous[0] + step[0] * t, previous[1] + step[1] * t, previous[2] + step[2] * t});
    }
    previous = next;
  }
  core::VoxelBox all;
  const int half = std::max(0, thickness - 1) / 2, extra = std::max(0, thickness - 1) - half;
  std::vector<std::array<long, 3>> voxels;
  for (const Vec3& s : samples) {
    const long c[3] = {std::lround(s[0]), std::lround(s[1]), std::lround(s[2])};
    for (long du = -half; du <= extra; ++du) {
      for (long dv = -half; dv <= extra; ++dv) {
        long v[3] = {c[0], c[1], c[2]};
        const int u = (axis + 1) % 3, w = (axis + 2) % 3;
        v[u] += du;
        v[w] += dv;
        if (inImage(grid, v[0], v[1], v[2])) {
          voxels.push_back({v[0], v[1], v[2]});
          all.include(std::size_t(v[0]), std::size_t(v[1]), std::size_t(v[2]));
        }
      }
    }
  }
  if (all.empty()) {
    return std::nullopt;
  }
  BoxMask mask(all);
  for (const auto& v : voxels) {
    mask.set(std::size_t(v[0]), std::size_t(v[1]), std::size_t(v[2]));
  }
  return fromMask(mask, core::ai::PromptKind::Scribble, positive);
}

}  // namespace delineate::annotation
