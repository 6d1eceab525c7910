#include "app/server/ClickParams.h"

#include <cmath>
#include <optional>

#include "core/Error.h"

namespace delineate::server {

namespace {

std::optional<std::int64_t> indexOf(const nlohmann::json& v) {
  if (v.is_number_integer()) {
    return v.get<std::int64_t>();
  }
  if (v.is_number()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && std::abs(d) < 9007199254740992.0) {
      return static_cast<std::int64_t>(std::llround(d));
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<core::ai::VoxelIndex> clicksOf(const nlohmann::json& params, const char* key) {
  std::vector<core::ai::VoxelIndex> out;
  if (!params.is_object() || !params.contains(key) || !params[key].is_array()) {
    return out;
  }
  for (const nlohmann::json& c : params[key]) {
    if (!c.is_array() || c.size() < 3) {
      continue;
    }
    const auto i = indexOf(c[0]), j = indexOf(c[1]), k = indexOf(c[2]);
    if (i && j && k) {
      out.push_back({*i, *j, *k});
    }
  }
  return out;
}

std::string textParam(const nlohmann::json& params, const char* key, const std::string& fallback) {
  if (!params.is_object()) {
    return fallback;
  }
  const auto it = params.find(key);
  if (it == params.end() || it->is_null()) {
    return fallback;
  }
  if (!it->is_string()) {
    throw core::Error(core::ErrorKind::InvalidInput, "params",
                      std::string("\"") + key + "\" must be a text, not " + it->dump());
  }
  return it->get<std::string>();
}

}  // namespace delineate::server
