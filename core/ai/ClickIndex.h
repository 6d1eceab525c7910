#pragma once
// Clicks for interactive models (docs/ai-protocol.md, "Clicks"): integer voxel indices [i, j, k] of
// the exact image file the server reads, in that file's own index order, rounded to the nearest
// voxel centre (Slicer and OHIF round; MITK truncates, which shifts clicks by up to one voxel).
// Every function takes the *server's* grid: when the file sent or stored differs from ours
// (re-saved in RAS with flipped axes, resampled, a single slice), convert in its geometry.
#include <array>
#include <cstdint>
#include <optional>

#include "core/model/ImageGeometry.h"

namespace delineate::core::ai {

using VoxelIndex = std::array<std::int64_t, 3>;

struct ClickIndex {
  VoxelIndex ijk{0, 0, 0};  // rounded; may lie outside the grid
  bool inside = false;      // 0 <= ijk[a] < size[a] on every axis
};

// The voxel of `target` whose centre is nearest to `worldLps` (mm). Non-finite or absurdly far
// points come back with inside == false and ijk clamped to +-2^53.
ClickIndex clickIndex(const ImageGeometry& target, const Vec3& worldLps);

// The voxel index, or nullopt when the point lies outside the grid.
std::optional<VoxelIndex> clickIndexInside(const ImageGeometry& target, const Vec3& worldLps);

// The LPS geometry of a file whose header maps voxel indices to RAS mm with the row-major 4x4
// `indexToRas` (a NIfTI sform/qform, an ITK-SNAP or nibabel affine), e.g. the file the server
// wrote or will read. Columns are split into spacing (their length) and direction.
ImageGeometry geometryFromRasAffine(const Size3& size, const std::array<double, 16>& indexToRas);

// The geometry of the same voxels stored with the index axes in `flip` reversed (what a writer
// produces when it turns LPS-ordered data into RAS-ordered data: flip = {true, true, false}).
// Index i on a flipped axis becomes size - 1 - i; the world position of every voxel is kept.
ImageGeometry withFlippedAxes(const ImageGeometry& geometry, const std::array<bool, 3>& flip);

}  // namespace delineate::core::ai
