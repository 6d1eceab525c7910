#include "core/ai/MonaiRequests.h"

#include <algorithm>

#include "core/Error.h"

namespace delineate::core::ai {

using nlohmann::json;

namespace {

// Routes the server declares with a trailing slash (FastAPI redirects the bare form to a URL
// that then answers 404).
constexpr std::string_view kCollections[] = {"info",    "datastore", "train", "scoring",
                                             "session", "auth",      "logs"};

json clickList(const std::vector<VoxelIndex>& clicks, const std::optional<std::int64_t>& slice) {
  json list = json::array();
  for (const VoxelIndex& c : clicks) {
    if (!slice || c[2] == *slice) {
      list.push_back({c[0], c[1], c[2]});
    }
  }
  return list;
}

json baseObject(const RequestOptions& options) {
  if (options.base.is_null()) {
    return json::object();
  }
  if (!options.base.is_object()) {
    throw Error(ErrorKind::InvalidInput, {}, "request params base is not a JSON object");
  }
  return options.base;
}

}  // namespace

json configDefaults(const std::vector<ModelOption>& config) {
  json out = json::object();
  for (const ModelOption& option : config) {
    out[option.key] = option.defaultValue;
  }
  return out;
}

void addCommonInferKeys(json& params, const RequestOptions& options) {
  params["result_extension"] = ".nii.gz";
  params["result_dtype"] = "uint8";
  params["client_id"] = options.clientId;
}

json deepgrowParams(const DeepgrowClicks& clicks, const RequestOptions& options) {
  json params = baseObject(options);
  params["foreground"] = clickList(clicks.foreground, clicks.slice);
  params["background"] = clickList(clicks.background, clicks.slice);
  params["label"] = clicks.label;
  if (clicks.slice) {
    params["slice"] = *clicks.slice;
  }
  if (clicks.resetState) {
    params["reset_state"] = true;
  }
  addCommonInferKeys(params, options);
  return params;
}

json deepeditParams(const DeepeditClicks& clicks, const RequestOptions& options) {
  json params = baseObject(options);
  json background = clickList(clicks.background, std::nullopt);
  for (const auto& [name, list] : clicks.perLabel) {
    if (name == "background") {
      for (json& c : clickList(list, std::nullopt)) {
        background.push_back(std::move(c));
      }
      continue;
    }
    for (std::string_view reserved : {"label", "client_id", "result_extension", "result_dtype"}) {
      if (name == reserved) {
        throw Error(ErrorKind::InvalidInput, {},
                    "label name '" + name + "' is a key of the deepedit request itself");
      }
    }
    json& entry = params[name];
    if (!entry.is_array()) {
      entry = json::array();
    }
    for (json& c : clickList(list, std::nullopt)) {
      entry.push_back(std::move(c));
    }
  }
  params["background"] = std::move(background);
  params["label"] = clicks.label;
  addCommonInferKeys(params, options);
  return params;
}

json automaticParams(const RequestOptions& options) {
  json params = baseObject(options);
  addCommonInferKeys(params, options);
  return params;
}

std::string paramsText(const json& params) {
  return params.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string joinUrl(std::string_view base, std::string_view path) {
  while (!base.empty() && base.back() == '/') {
    base.remove_suffix(1);
  }
  const std::size_t q = path.find_first_of("?#");
  const std::string_view query = q == std::string_view::npos ? std::string_view() : path.substr(q);
  std::string_view route = path.substr(0, q);
  std::string clean;
  for (char c : route) {
    if (c == '/' && (clean.empty() || clean.back() == '/')) {
      continue;  // leading and doubled slashes
    }
    clean += c;
  }
  const bool trailing = !clean.empty() && clean.back() == '/';
  const std::string_view bare =
      trailing ? std::string_view(clean).substr(0, clean.size() - 1) : std::string_view(clean);
  const bool collection =
      std::find(std::begin(kCollections), std::end(kCollections), bare) != std::end(kCollections);
  if (collection && !trailing) {
    clean += '/';
  }
  std::string out(base);
  out += '/';
  out += clean;
  out += query;
  return out;
}

std::string inferPath(std::string_view model, std::string_view imageId,
                      std::string_view sessionId) {
  std::string out = "/infer/" + percentEncode(model);
  char separator = '?';
  if (!imageId.empty()) {
    out += separator;
    out += "image=" + percentEncode(imageId);
    separator = '&';
  }
  if (!sessionId.empty()) {
    out += separator;
    out += "session_id=" + percentEncode(sessionId);
  }
  return out;
}

}  // namespace delineate::core::ai
