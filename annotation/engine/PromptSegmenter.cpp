#include "annotation/engine/PromptSegmenter.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace delineate::annotation {

namespace {

using core::Size3;
using core::VoxelBox;

constexpr std::size_t kScribbleClicks = 5;

Size3 centreOf(const VoxelBox& b) {
  return {(b.lo[0] + b.hi[0] - 1) / 2, (b.lo[1] + b.hi[1] - 1) / 2, (b.lo[2] + b.hi[2] - 1) / 2};
}

std::size_t squaredDistance(const Size3& a, const Size3& b) {
  std::size_t d = 0;
  for (int x = 0; x < 3; ++x) {
    const std::size_t diff = a[x] > b[x] ? a[x] - b[x] : b[x] - a[x];
    d += diff * diff;
  }
  return d;
}

// Up to five voxels spread along a stroke: the one nearest its middle, then each time the one
// farthest from those already taken, while that is more than 3 voxels away.
std::vector<Size3> spreadAlong(const std::vector<Size3>& voxels) {
  std::vector<Size3> out;
  if (voxels.empty()) {
    return out;
  }
  double c[3] = {0, 0, 0};
  for (const Size3& v : voxels) {
    for (int a = 0; a < 3; ++a) {
      c[a] += double(v[a]);
    }
  }
  const Size3 mean{static_cast<std::size_t>(c[0] / double(voxels.size()) + 0.5),
                   static_cast<std::size_t>(c[1] / double(voxels.size()) + 0.5),
                   static_cast<std::size_t>(c[2] / double(voxels.size()) + 0.5)};
  out.push_back(
      *std::min_element(voxels.begin(), voxels.end(), [&](const Size3& a, const Size3& b) {
        return squaredDistance(a, mean) < squaredDistance(b, mean);
      }));
  std::vector<std::size_t> nearest(voxels.size(), std::numeric_limits<std::size_t>::max());
  while (out.size() < kScribbleClicks) {
    std::size_t best = 0, bestDistance = 0;
    for (std::size_t n = 0; n < voxels.size(); ++n) {
      nearest[n] = std::min(nearest[n], squaredDistance(voxels[n], out.back()));
      if (nearest[n] > bestDistance) {
        bestDistance = nearest[n];
        best = n;
      }
    }
    if (bestDistance <= 9) {
      break;
    }
    out.push_back(voxels[best]);
  }
  return out;
}

// The voxel of a mask farthest (in 6-connected steps) from anything outside it.
Size3 deepestInside(const Prompt& p) {
  const VoxelBox& b = p.box;
  const std::size_t nx = b.hi[0] - b.lo[0], ny = b.hi[1] - b.lo[1], nz = b.hi[2] - b.lo[2];
  std::vector<std::uint32_t> depth(p.mask.size(), 0);
  std::deque<std::size_t> queue;
  for (std::size_t k = 0, n = 0; k < nz; ++k) {
    for (std::size_t j = 0; j < ny; ++j) {
      for (std::size_t i = 0; i < nx; ++i, ++n) {
        if (p.mask[n] == 0) {
          continue;
        }
        // Next to the outside: a zero neighbour, or the box's border along a thick axis.
        const bool edge =
            (nx > 1 && (i == 0 || i + 1 == nx || !p.mask[n - 1] || !p.mask[n + 1])) ||
            (ny > 1 && (j == 0 || j + 1 == ny || !p.mask[n - nx] || !p.mask[n + nx])) ||
            (nz > 1 && (k == 0 || k + 1 == nz || !p.mask[n - nx * ny] || !p.mask[n + nx * ny]));
        if (edge) {
          depth[n] = 1;
          queue.push_back(n);
        }
      }
    }
  }
  std::size_t deepest = queue.empty() ? 0 : queue.front();
  while (!queue.empty()) {
    const std::size_t n = queue.front();
    queue.pop_front();
    if (depth[n] > depth[deepest]) {
      deepest = n;
    }
    const std::size_t i = n % nx, j = (n / nx) % ny, k = n / (nx * ny);
    const std::size_t next[6] = {i > 0 ? n - 1 : n,       i + 1 < nx ? n + 1 : n,
                                 j > 0 ? n - nx : n,      j + 1 < ny ? n + nx : n,
                                 k > 0 ? n - nx * ny : n, k + 1 < nz ? n + nx * ny : n};
    for (const std::size_t m : next) {
      if (m != n && p.mask[m] != 0 && depth[m] == 0) {
        depth[m] = depth[n] + 1;
        queue.push_back(m);
      }
    }
  }
  return {b.lo[0] + deepest % nx, b.lo[1] + (deepest / nx) % ny, b.lo[2] + deepest / (nx * ny)};
}

bool inside(const Size3& v, const Size3& size) {
  return v[0] < size[0] && v[1] < size[1] && v[2] < size[2];
}

// Where a positive 2-D box or lasso lets the structure be: its rectangle widened by a quarter
// of its size (at least 2 voxels) on each side; along the slice axis, everywhere.
VoxelBox allowedRegion(const VoxelBox& box, int sliceAxis, const Size3& size, bool onSliceOnly) {
  VoxelBox out = box;
  for (int a = 0; a < 3; ++a) {
    if (a == sliceAxis) {
      if (!onSliceOnly) {
        out.lo[a] = 0;
        out.hi[a] = size[a];
      }
      continue;
    }
    const std::size_t pad = std::max<std::size_t>(2, (box.hi[a] - box.lo[a]) / 4);
    out.lo[a] = box.lo[a] > pad ? box.lo[a] - pad : 0;
    out.hi[a] = std::min(size[a], box.hi[a] + pad);
  }
  return out;
}

bool contains(const VoxelBox& b, std::size_t i, std::size_t j, std::size_t k) {
  return i >= b.lo[0] && i < b.hi[0] && j >= b.lo[1] && j < b.hi[1] && k >= b.lo[2] && k < b.hi[2];
}

}  // namespace

Guidance guidanceOf(const std::vector<Prompt>& prompts, const Size3& imageSize) {
  Guidance g;
  for (const Prompt& p : prompts) {
    switch (p.kind) {
      case PromptKind::Point:
        if (inside(p.point, imageSize)) {
          g.add(p.point, p.positive);
        }
        break;
      case PromptKind::Box:
        if (!p.box.empty() && inside(centreOf(p.box), imageSize)) {
          g.add(centreOf(p.box), p.positive);
        }
        break;
      case PromptKind::Scribble:
        for (const Size3& v : spreadAlong(p.maskVoxels())) {
          if (inside(v, imageSize)) {
            g.add(v, p.positive);
          }
        }
        break;
      case PromptKind::Lasso:
        if (!p.maskVoxels().empty()) {
          const Size3 v = deepestInside(p);
          if (inside(v, imageSize)) {
            g.add(v, p.positive);
          }
        }
        break;
    }
  }
  return g;
}

BoxMask PromptSegmenter::segment(const core::Volume& image, const std::vector<Prompt>& prompts,
                                 core::ProgressSink& progress, const BoxMask* initial) const {
  const Size3 size = image.geometry().size;
  const bool refining = initial != nullptr && !initial->none();
  // A positive box starts the box segmenter; the prompts after it are its corrections.
  const auto firstBox =
      refining ? prompts.end() : std::find_if(prompts.begin(), prompts.end(), [&](const Prompt& p) {
        return p.kind == PromptKind::Box && p.positive && !p.box.empty() &&
               inside(centreOf(p.box), size);
      });
  // The box segmenter and the refiner keep to their region by themselves, and a click outside
  // it adds what the user clicked; the click segmenter is kept inside the positive boxes.
  const bool keepInBoxes = !refining && firstBox == prompts.end();
  BoxMask result;
  if (refining) {
    result = refiner_.refine(image, *initial, guidanceOf(prompts, size).clicks, progress);
  } else if (firstBox != prompts.end()) {
    std::vector<Prompt> rest;
    for (auto p = prompts.begin(); p != prompts.end(); ++p) {
      if (p != firstBox) {
        rest.push_back(*p);
      }
    }
    result = boxes_.segment(image, firstBox->box, firstBox->sliceAxis(),
                            AxisSpan{firstBox->spanLo, firstBox->spanHi},
                            guidanceOf(rest, size).clicks, progress);
  } else {
    result = clicks_.segment(image, guidanceOf(prompts, size), progress);
  }
  VoxelBox extent = result.box;
  std::vector<VoxelBox> boxes;
  std::vector<std::pair<VoxelBox, int>> lassos;  // the lasso's own slice, widened
  for (const Prompt& p : prompts) {
    if (!p.positive) {
      continue;
    }
    if (p.kind == PromptKind::Scribble) {
      extent.include(p.box);
    } else if (p.kind == PromptKind::Box && !p.box.empty() && keepInBoxes) {
      boxes.push_back(p.sliceAxis() < 0 ? p.box : allowedRegion(p.box, p.sliceAxis(), size, false));
    } else if (p.kind == PromptKind::Lasso && p.sliceAxis() >= 0) {
      lassos.emplace_back(allowedRegion(p.box, p.sliceAxis(), size, true), p.sliceAxis());
    }
  }
  extent = intersection(extent, VoxelBox::whole(size));
  if (extent.empty()) {
    return {};
  }
  result = result.reboxed(extent);
  for (std::size_t k = extent.lo[2]; k < extent.hi[2]; ++k) {
    for (std::size_t j = extent.lo[1]; j < extent.hi[1]; ++j) {
      for (std::size_t i = extent.lo[0]; i < extent.hi[0]; ++i) {
        std::uint8_t& bit = result.bits[result.index(i, j, k)];
        if (!bit) {
          continue;
        }
        if (!boxes.empty() && std::none_of(boxes.begin(), boxes.end(), [&](const VoxelBox& b) {
              return contains(b, i, j, k);
            })) {
          bit = 0;
          continue;
        }
        const std::size_t at[3] = {i, j, k};
        for (const auto& [region, axis] : lassos) {
          if (at[axis] == region.lo[axis] && !contains(region, i, j, k)) {
            bit = 0;
          }
        }
      }
    }
  }
  // What the user drew wins over what was found: positive strokes in, negative prompts out.
  for (const Prompt& p : prompts) {
    if (p.kind == PromptKind::Point || (p.positive && p.kind != PromptKind::Scribble)) {
      continue;
    }
    if (p.kind == PromptKind::Box) {
      const VoxelBox gone = intersection(p.box, extent);
      for (std::size_t k = gone.lo[2]; k < gone.hi[2]; ++k) {
        for (std::size_t j = gone.lo[1]; j < gone.hi[1]; ++j) {
          for (std::size_t i = gone.lo[0]; i < gone.hi[0]; ++i) {
            result.set(i, j, k, 0);
          }
        }
      }
      continue;
    }
    for (const Size3& v : p.maskVoxels()) {
      if (result.contains(v[0], v[1], v[2])) {
        result.set(v[0], v[1], v[2], p.positive ? 1 : 0);
      }
    }
  }
  return result.shrunkToContent();
}

}  // namespace delineate::annotation
