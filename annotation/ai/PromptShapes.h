#pragma once
// Prompts drawn on a slice of any plane (axial, coronal, sagittal, or the nearest of them for an
// oblique view), turned into core::ai::Prompt on the image grid: a box from two corners, a lasso
// from its outline (filled), a scribble from its stroke (a few voxels thick in the plane). The
// slice is the one through the first point; the result is one voxel thick along the grid axis
// nearest the view's normal, as nnInteractive expects of 2-D prompts. Empty prompts (no voxel of
// the image) come back as nullopt.
#include <optional>
#include <vector>

#include "core/ai/Prompt.h"
#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

// The four corners of the rectangle in the plane with `normal` whose opposite corners are `a`
// and `b` (sides along the patient axes closest to the plane).
std::vector<core::Vec3> rectangleOutline(const core::Vec3& a, const core::Vec3& b,
                                         const core::Vec3& normal);

// The grid axis closest to a view's slice normal (0, 1 or 2).
int sliceAxisFor(const core::ImageGeometry& grid, const core::Vec3& normal);

std::optional<core::ai::Prompt> boxPrompt(const core::ImageGeometry& grid, const core::Vec3& from,
                                          const core::Vec3& to, const core::Vec3& normal,
                                          bool positive);
std::optional<core::ai::Prompt> lassoPrompt(const core::ImageGeometry& grid,
                                            const std::vector<core::Vec3>& outline,
                                            const core::Vec3& normal, bool positive);
// `thickness`: the stroke's width in voxels (nnInteractive's preferred_scribble_thickness, 2).
std::optional<core::ai::Prompt> scribblePrompt(const core::ImageGeometry& grid,
                                               const std::vector<core::Vec3>& stroke,
                                               const core::Vec3& normal, bool positive,
                                               int thickness = 2);

}  // namespace delineate::annotation
