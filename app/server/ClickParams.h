#pragma once
// Clicks in a request's params (MONAI Label's "foreground" / "background", AIAA's "points"): a
// list of [i, j, k] voxel indices. Entries that are not three numbers, or numbers no voxel index
// can be (fractions are rounded; non-finite or beyond +-2^53 are dropped), are left out.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/ai/ClickIndex.h"
#include "core/model/VoxelBox.h"

namespace delineate::server {

std::vector<core::ai::VoxelIndex> clicksOf(const nlohmann::json& params, const char* key);

// The region of interest 3D Slicer and Delineate send with a MONAI Label request ("roi":
// [i0, i1, j0, j1, k0, k1], half-open voxel indices; a pair given high first is swapped, as
// Slicer sends it for images whose axes run against RAS, and equal ends mean that one index),
// clipped to the image of `size`; nullopt when absent. Throws core::Error(InvalidInput) naming the
// field when it is not six numbers or holds no voxel of the image.
std::optional<core::VoxelBox> roiOf(const nlohmann::json& params, const core::Size3& size);

// A text field of a request's params: `fallback` when it is absent or null (MONAI Label's own
// Python client sends `"client_id": null` when it was made without a client id, meaning "not
// given"); any other non-text value throws core::Error(InvalidInput) naming the field.
std::string textParam(const nlohmann::json& params, const char* key, const std::string& fallback);

}  // namespace delineate::server
