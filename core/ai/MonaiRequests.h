#pragma once
// Request parts for a MONAI Label server (docs/ai-protocol.md, "Requests" and "Clicks"): the
// `params` JSON of /infer calls and URLs that the server routes (collection routes need their
// trailing slash, and a doubled slash answers 404).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Text.h"
#include "core/ai/ClickIndex.h"
#include "core/ai/MonaiInfo.h"

namespace delineate::core::ai {

struct RequestOptions {
  std::string clientId = "delineate";
  // Keys sent first and overridden by ours, e.g. configDefaults(model.config) with the user's
  // choices. Must be a JSON object (or null).
  nlohmann::json base;
};

// {key: default} for each option, the way Slicer sends a model's config back.
nlohmann::json configDefaults(const std::vector<ModelOption>& config);

struct DeepgrowClicks {
  std::string label;  // the segment being grown
  std::vector<VoxelIndex> foreground;
  std::vector<VoxelIndex> background;
  // 2D models: the slice (k) to work on; clicks on other slices are left out and `slice` sent.
  std::optional<std::int64_t> slice;
  bool resetState = false;  // sent as "reset_state": true on the first click after a change
};

struct DeepeditClicks {
  std::string label;  // the active label
  // Clicks per label name, in the order given; labels without clicks may carry an empty list.
  std::vector<std::pair<std::string, std::vector<VoxelIndex>>> perLabel;
  std::vector<VoxelIndex> background;
};

// {"foreground": [[i,j,k]...], "background": [...], "label": name[, "slice": k]} + common keys.
nlohmann::json deepgrowParams(const DeepgrowClicks& clicks, const RequestOptions& options = {});
// {"<label>": [[i,j,k]...], ..., "background": [...], "label": name} + common keys. Throws
// Error(InvalidInput) when a label name is one of the keys the request itself uses.
nlohmann::json deepeditParams(const DeepeditClicks& clicks, const RequestOptions& options = {});
// The base keys + common keys.
nlohmann::json automaticParams(const RequestOptions& options = {});

// Adds what every /infer call of ours carries: result_extension ".nii.gz" (a small integer
// NIfTI our reader streams), result_dtype "uint8" (else float32) and client_id.
void addCommonInferKeys(nlohmann::json& params, const RequestOptions& options);

// The params JSON as the form field's text; invalid UTF-8 in names is replaced, not thrown on.
std::string paramsText(const nlohmann::json& params);

// base + path with exactly one slash between them, duplicate slashes in the path collapsed, and
// the trailing slash the server needs on collection routes ("info" -> "info/", also before a
// query: "datastore?output=stats" -> "datastore/?output=stats"). The base may end in slashes
// and carry a path prefix (a reverse proxy's).
std::string joinUrl(std::string_view base, std::string_view path);

// RFC 3986 percent-encoding (core/Text.h), as the MONAI Label requests use it.
using core::percentEncode;

// "/infer/<model>?image=<id>&session_id=<id>" with the empty ones left out, all encoded. Without
// `output` the server answers multipart (params + image).
std::string inferPath(std::string_view model, std::string_view imageId = {},
                      std::string_view sessionId = {});

}  // namespace delineate::core::ai
