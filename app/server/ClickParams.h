#pragma once
// Clicks in a request's params (MONAI Label's "foreground" / "background", AIAA's "points"): a
// list of [i, j, k] voxel indices. Entries that are not three numbers, or numbers no voxel index
// can be (fractions are rounded; non-finite or beyond +-2^53 are dropped), are left out.
#include <nlohmann/json.hpp>
#include <vector>

#include "core/ai/ClickIndex.h"

namespace delineate::server {

std::vector<core::ai::VoxelIndex> clicksOf(const nlohmann::json& params, const char* key);

}  // namespace delineate::server
