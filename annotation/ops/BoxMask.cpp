#include "annotation/ops/BoxMask.h"

#include <algorithm>

namespace delineate::annotation {

using core::Size3;
using core::VoxelBox;

BoxMask::BoxMask(const VoxelBox& b) : box(b), bits(b.count(), 0) {
  if (box.empty()) {
    box = {};
  }
}

std::size_t BoxMask::count() const {
  return static_cast<std::size_t>(std::count(bits.begin(), bits.end(), std::uint8_t{1}));
}

VoxelBox BoxMask::contentBox() const {
  VoxelBox content;
  if (box.empty()) {
    return content;
  }
  const Size3 n = extent();
  const std::uint8_t* p = bits.data();
  for (std::size_t z = 0; z < n[2]; ++z) {
    for (std::size_t y = 0; y < n[1]; ++y, p += n[0]) {
      const std::uint8_t* first = std::find(p, p + n[0], std::uint8_t{1});
      if (first == p + n[0]) {
        continue;
      }
      std::size_t last = n[0] - 1;
      while (p[last] == 0) {
        --last;
      }
      const std::size_t j = box.lo[1] + y, k = box.lo[2] + z;
      content.include(box.lo[0] + std::size_t(first - p), j, k);
      content.include(box.lo[0] + last, j, k);
    }
  }
  return content;
}

BoxMask BoxMask::reboxed(const VoxelBox& target) const {
  BoxMask out(target);
  const VoxelBox common = intersection(box, out.box);
  if (common.empty()) {
    return out;
  }
  const std::size_t w = common.hi[0] - common.lo[0];
  for (std::size_t k = common.lo[2]; k < common.hi[2]; ++k) {
    for (std::size_t j = common.lo[1]; j < common.hi[1]; ++j) {
      const std::uint8_t* src = bits.data() + index(common.lo[0], j, k);
      std::copy(src, src + w, out.bits.data() + out.index(common.lo[0], j, k));
    }
  }
  return out;
}

VoxelBox intersection(const VoxelBox& a, const VoxelBox& b) {
  VoxelBox out;
  for (int axis = 0; axis < 3; ++axis) {
    out.lo[axis] = std::max(a.lo[axis], b.lo[axis]);
    out.hi[axis] = std::min(a.hi[axis], b.hi[axis]);
  }
  return out.empty() ? VoxelBox{} : out;
}

VoxelBox padded(const VoxelBox& box, const Size3& pad, const Size3& limit) {
  if (box.empty()) {
    return {};
  }
  VoxelBox out;
  for (int a = 0; a < 3; ++a) {
    out.lo[a] = box.lo[a] > pad[a] ? box.lo[a] - pad[a] : 0;
    out.hi[a] = std::min(limit[a], box.hi[a] + pad[a]);
  }
  return out.empty() ? VoxelBox{} : out;
}

namespace {

// Calls f(i, j, k, bit) for every voxel of the mask's box that lies inside the map.
template <class F>
void forEachVoxel(const BoxMask& mask, const core::LabelMap& map, F&& f) {
  const VoxelBox box = intersection(mask.box, VoxelBox::whole(map.geometry().size));
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      const std::uint8_t* row = mask.bits.data() + mask.index(box.lo[0], j, k);
      for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i) {
        f(i, j, k, row[i - box.lo[0]]);
      }
    }
  }
}

}  // namespace

std::size_t applyPaint(core::LabelMapEdit& edit, const BoxMask& mask, std::uint16_t value) {
  std::size_t changed = 0;
  forEachVoxel(mask, edit.map(), [&](std::size_t i, std::size_t j, std::size_t k, std::uint8_t b) {
    if (b) {
      changed += edit.write(i, j, k, value) ? 1 : 0;
    }
  });
  return changed;
}

std::size_t applyReplace(core::LabelMapEdit& edit, const BoxMask& mask, std::uint16_t label) {
  std::size_t changed = 0;
  const core::LabelMap& map = edit.map();
  forEachVoxel(mask, map, [&](std::size_t i, std::size_t j, std::size_t k, std::uint8_t b) {
    if (b) {
      changed += edit.write(i, j, k, label) ? 1 : 0;
    } else if (edit.value(i, j, k) == label) {
      changed += edit.write(i, j, k, 0) ? 1 : 0;
    }
  });
  return changed;
}

BoxMask extractSegment(const core::LabelMap& map, std::uint16_t label, std::size_t padVoxels) {
  const Size3& size = map.geometry().size;
  VoxelBox bounds;
  const std::uint16_t* data = map.data();
  for (std::size_t k = 0; k < size[2]; ++k) {
    for (std::size_t j = 0; j < size[1]; ++j) {
      const std::uint16_t* row = data + map.index(0, j, k);
      const std::uint16_t* first = std::find(row, row + size[0], label);
      if (first == row + size[0]) {
        continue;
      }
      std::size_t last = size[0] - 1;
      while (row[last] != label) {
        --last;
      }
      bounds.include(std::size_t(first - row), j, k);
      bounds.include(last, j, k);
    }
  }
  BoxMask mask(padded(bounds, {padVoxels, padVoxels, padVoxels}, size));
  for (std::size_t k = mask.box.lo[2]; k < mask.box.hi[2]; ++k) {
    for (std::size_t j = mask.box.lo[1]; j < mask.box.hi[1]; ++j) {
      const std::uint16_t* row = data + map.index(0, j, k);
      std::uint8_t* out = mask.bits.data() + mask.index(mask.box.lo[0], j, k);
      for (std::size_t i = mask.box.lo[0]; i < mask.box.hi[0]; ++i) {
        *out++ = row[i] == label ? 1 : 0;
      }
    }
  }
  return mask;
}

BoxMask restrictToPolicy(const BoxMask& mask, const core::LabelMap& map, std::uint16_t label,
                         const core::PaintPolicy& policy) {
  BoxMask out = mask;
  if (policy.mode == core::OverwriteMode::All) {
    return out;
  }
  forEachVoxel(mask, map, [&](std::size_t i, std::size_t j, std::size_t k, std::uint8_t b) {
    if (!b) {
      return;
    }
    const std::uint16_t current = map.at(i, j, k);
    const bool ok =
        current == label || (policy.mode == core::OverwriteMode::EmptyOnly && current == 0) ||
        (policy.mode == core::OverwriteMode::InsideSegment && current == policy.insideLabel);
    if (!ok) {
      out.set(i, j, k, 0);
    }
  });
  return out;
}

}  // namespace delineate::annotation
