#pragma once
// One prompt of interactive segmentation, as nnInteractive and the app's prompt tools give them:
// a point, a box (2-D when one axis is one voxel thick: drawn on a slice of any plane; else 3-D),
// a scribble (the stroke's voxels) or a lasso (the filled outline's voxels), each positive (the
// structure is here) or negative (it is not). Voxel indices on the image grid, boxes [lo, hi).
#include <cstdint>
#include <optional>
#include <vector>

#include "core/model/VoxelBox.h"

namespace delineate::core::ai {

enum class PromptKind { Point, Box, Scribble, Lasso };

// "point", "box", "scribble", "lasso".
const char* promptKindName(PromptKind kind);

struct Prompt {
  PromptKind kind = PromptKind::Point;
  bool positive = true;
  Size3 point{0, 0, 0};            // Point
  VoxelBox box;                    // Box; Scribble and Lasso: the box `mask` covers
  std::vector<std::uint8_t> mask;  // Scribble and Lasso: 0/1 over `box`, x fastest
  // A box drawn on a slice: how far along its axis the structure goes, as far as the user said
  // (the CVPR 2025 challenge's box is its middle slice's rectangle with the top and bottom
  // slice): its first slice, and one past its last, each given or not.
  std::optional<std::size_t> spanLo;
  std::optional<std::size_t> spanHi;

  // The axis a box or mask is one voxel thick along (the plane it was drawn on: 2 axial,
  // 1 coronal, 0 sagittal), or -1 for a 3-D one or a point.
  int sliceAxis() const;
  // The set voxels of a scribble or lasso, in volume indices.
  std::vector<Size3> maskVoxels() const;
};

}  // namespace delineate::core::ai
