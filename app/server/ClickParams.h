#pragma once
// Clicks in a request's params (MONAI Label's "foreground" / "background", AIAA's "points"): a
// list of [i, j, k] voxel indices. Entries that are not three numbers, or numbers no voxel index
// can be (fractions are rounded; non-finite or beyond +-2^53 are dropped), are left out.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/ai/ClickIndex.h"

namespace delineate::server {

std::vector<core::ai::VoxelIndex> clicksOf(const nlohmann::json& params, const char* key);

// A text field of a request's params: `fallback` when it is absent or null (MONAI Label's own
// Python client sends `"client_id": null` when it was made without a client id, meaning "not
// given"); any other non-text value throws core::Error(InvalidInput) naming the field.
std::string textParam(const nlohmann::json& params, const char* key, const std::string& fallback);

}  // namespace delineate::server
