#pragma once
// Logical operators between two masks (Slicer's Logical operators effect).
#include "annotation/ops/BoxMask.h"

namespace delineate::annotation {

enum class LogicalOp {
  Union,      // a or b
  Intersect,  // a and b
  Subtract,   // a and not b
  Xor,        // a or b, not both
};

// The operator applied voxel by voxel over the union of both boxes (so that applying the result
// to a's segment also clears what it removes anywhere in a's box).
BoxMask logicalOp(const BoxMask& a, const BoxMask& b, LogicalOp op);

// 1 inside `within` wherever `mask` is 0: the complement of a mask restricted to a box (the
// scissors' "outside").
BoxMask invertWithin(const BoxMask& mask, const core::VoxelBox& within);

}  // namespace delineate::annotation
