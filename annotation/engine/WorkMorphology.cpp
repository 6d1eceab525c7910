#include "annotation/engine/WorkMorphology.h"

#include <algorithm>

#include "annotation/engine/FaceNeighbours.h"

namespace delineate::annotation {

namespace {

// Binary erosion (all set in the window) or dilation (any set) along one axis with a window
// of 2 radius + 1 voxels, by running counts; the block's ends replicate its end voxels. Along y
// and z the counts are kept for a whole row at once, so memory is read in order.
void pass(std::vector<std::uint8_t>& mask, const core::Size3& n, int axis, int radius, bool erode) {
  const std::ptrdiff_t len = std::ptrdiff_t(n[axis]), r = radius;
  if (len < 2 || r < 1) {
    return;
  }
  const std::uint8_t full = std::uint8_t(2 * r + 1);
  auto result = [&](int count) -> std::uint8_t { return erode ? count == full : count > 0; };
  auto clampT = [&](std::ptrdiff_t t) {
    return std::size_t(std::clamp<std::ptrdiff_t>(t, 0, len - 1));
  };
  if (axis == 0) {
    std::vector<std::uint8_t> line(n[0]);
    for (std::size_t row = 0; row < n[1] * n[2]; ++row) {
      std::uint8_t* p = mask.data() + row * n[0];
      std::copy(p, p + n[0], line.begin());
      int count = 0;
      for (std::ptrdiff_t t = -r; t <= r; ++t) {
        count += line[clampT(t)];
      }
      for (std::ptrdiff_t t = 0; t < len; ++t) {
        p[t] = result(count);
        count += line[clampT(t + r + 1)] - line[clampT(t - r)];
      }
    }
    return;
  }
  // Along y (rows of x within each z slice) or z (slices of x-y planes): `unit` voxels per step.
  const std::size_t unit = axis == 1 ? n[0] : n[0] * n[1];
  const std::size_t outer = axis == 1 ? n[2] : 1;
  std::vector<std::uint8_t> copy(unit * std::size_t(len));
  std::vector<int> count(unit);
  for (std::size_t o = 0; o < outer; ++o) {
    std::uint8_t* base = mask.data() + o * unit * std::size_t(len);
    std::copy(base, base + copy.size(), copy.begin());
    auto slab = [&](std::ptrdiff_t t) { return copy.data() + clampT(t) * unit; };
    std::fill(count.begin(), count.end(), 0);
    for (std::ptrdiff_t t = -r; t <= r; ++t) {
      const std::uint8_t* src = slab(t);
      for (std::size_t i = 0; i < unit; ++i) {
        count[i] += src[i];
      }
    }
    for (std::ptrdiff_t t = 0; t < len; ++t) {
      std::uint8_t* dst = base + std::size_t(t) * unit;
      const std::uint8_t* add = slab(t + r + 1);
      const std::uint8_t* drop = slab(t - r);
      for (std::size_t i = 0; i < unit; ++i) {
        dst[i] = result(count[i]);
        count[i] += add[i] - drop[i];
      }
    }
  }
}

}  // namespace

void openCube(std::vector<std::uint8_t>& mask, const core::Size3& n, int radius) {
  for (int axis = 0; axis < 3; ++axis) {
    pass(mask, n, axis, radius, true);
  }
  for (int axis = 0; axis < 3; ++axis) {
    pass(mask, n, axis, radius, false);
  }
}

int cubeDepth(const std::vector<std::uint8_t>& mask, const core::Size3& n, std::size_t at,
              int limit) {
  const std::ptrdiff_t c[3] = {std::ptrdiff_t(at % n[0]), std::ptrdiff_t((at / n[0]) % n[1]),
                               std::ptrdiff_t(at / (n[0] * n[1]))};
  if (!mask[at]) {
    return -1;
  }
  for (int r = 1; r <= limit; ++r) {
    // The surface of the cube of radius r.
    for (std::ptrdiff_t z = c[2] - r; z <= c[2] + r; ++z) {
      for (std::ptrdiff_t y = c[1] - r; y <= c[1] + r; ++y) {
        const bool face = z == c[2] - r || z == c[2] + r || y == c[1] - r || y == c[1] + r;
        for (std::ptrdiff_t x = c[0] - r; x <= c[0] + r; x += face ? 1 : 2 * r) {
          if (x < 0 || y < 0 || z < 0 || x >= std::ptrdiff_t(n[0]) || y >= std::ptrdiff_t(n[1]) ||
              z >= std::ptrdiff_t(n[2]) ||
              !mask[std::size_t(x) + n[0] * (std::size_t(y) + n[1] * std::size_t(z))]) {
            return r - 1;
          }
        }
      }
    }
  }
  return limit;
}

void growWithin(std::vector<std::uint8_t>& mask, const std::vector<std::uint8_t>& allowed,
                const core::Size3& n, int steps) {
  std::vector<std::size_t> front, next;
  for (std::size_t i = 0; i < mask.size(); ++i) {
    if (mask[i]) {
      front.push_back(i);
    }
  }
  for (int s = 0; s < steps && !front.empty(); ++s) {
    next.clear();
    auto visit = [&](std::size_t nb) {
      if (!mask[nb] && allowed[nb]) {
        mask[nb] = 1;
        next.push_back(nb);
      }
    };
    for (std::size_t at : front) {
      forEachFaceNeighbour(at, n, [&](std::size_t nb, int) { visit(nb); });
    }
    front.swap(next);
  }
}

}  // namespace delineate::annotation
