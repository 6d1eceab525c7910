#pragma once
// A binary mask over a box of voxel indices: the result type of every segmentation operation.
// Operations compute a BoxMask off the GUI thread from const inputs; a cheap apply step writes it
// through a core::LabelMapEdit (which enforces the paint-over policy and the locks), so that the
// whole operation is one undo entry.
#include <cstdint>
#include <vector>

#include "core/edit/LabelMapEdit.h"
#include "core/edit/PaintPolicy.h"
#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

namespace delineate::annotation {

struct BoxMask {
  core::VoxelBox box;
  std::vector<std::uint8_t> bits;  // 0 or 1 per voxel of `box`, x fastest, then y, then z

  BoxMask() = default;
  // All zeros over `box`.
  explicit BoxMask(const core::VoxelBox& box);

  core::Size3 extent() const {
    return {box.hi[0] - box.lo[0], box.hi[1] - box.lo[1], box.hi[2] - box.lo[2]};
  }
  bool contains(std::size_t i, std::size_t j, std::size_t k) const {
    return i >= box.lo[0] && i < box.hi[0] && j >= box.lo[1] && j < box.hi[1] && k >= box.lo[2] &&
           k < box.hi[2];
  }
  // Position in `bits` of the voxel (i, j, k) given in volume indices; must lie inside `box`.
  std::size_t index(std::size_t i, std::size_t j, std::size_t k) const {
    const std::size_t nx = box.hi[0] - box.lo[0], ny = box.hi[1] - box.lo[1];
    return (i - box.lo[0]) + nx * ((j - box.lo[1]) + ny * (k - box.lo[2]));
  }
  // 0 outside the box.
  std::uint8_t at(std::size_t i, std::size_t j, std::size_t k) const {
    return contains(i, j, k) ? bits[index(i, j, k)] : 0;
  }
  void set(std::size_t i, std::size_t j, std::size_t k, std::uint8_t value = 1) {
    bits[index(i, j, k)] = value;
  }
  // Number of voxels set.
  std::size_t count() const;
  bool none() const { return count() == 0; }
  // The smallest box holding every set voxel (empty when none is).
  core::VoxelBox contentBox() const;
  // The same voxels over contentBox().
  BoxMask shrunkToContent() const { return reboxed(contentBox()); }
  // The same voxels over another box: voxels outside `target` are dropped, new ones are 0.
  BoxMask reboxed(const core::VoxelBox& target) const;
};

// Common part of two boxes (empty when they do not overlap).
core::VoxelBox intersection(const core::VoxelBox& a, const core::VoxelBox& b);
// `box` grown by pad[a] voxels on both sides of each axis, clipped to [0, limit).
core::VoxelBox padded(const core::VoxelBox& box, const core::Size3& pad, const core::Size3& limit);

// Writes `value` wherever the mask is 1 (0 erases). Returns the number of voxels changed.
std::size_t applyPaint(core::LabelMapEdit& edit, const BoxMask& mask, std::uint16_t value);
// Makes segment `label` exactly the mask inside the mask's box: writes `label` where the mask is
// 1 and clears to 0 the voxels of `label` where it is 0. Outside the box nothing changes.
// Returns the number of voxels changed.
std::size_t applyReplace(core::LabelMapEdit& edit, const BoxMask& mask, std::uint16_t label);

// The voxels of segment `label`, over its bounding box padded by `padVoxels` and clipped to the
// map (an empty box when the segment has no voxel).
BoxMask extractSegment(const core::LabelMap& map, std::uint16_t label, std::size_t padVoxels = 0);

// The voxels of `mask` that the paint-over policy would let `label` take (or that already hold
// it): used where one edit both adds and removes voxels of a segment, so that removing is not
// refused by an EmptyOnly / InsideSegment policy while adding still obeys it. Locks are left to
// the edit.
BoxMask restrictToPolicy(const BoxMask& mask, const core::LabelMap& map, std::uint16_t label,
                         const core::PaintPolicy& policy);

}  // namespace delineate::annotation
