#include "app/server/ClickParams.h"

#include <algorithm>
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

std::optional<core::VoxelBox> roiOf(const nlohmann::json& params, const core::Size3& size) {
  if (!params.is_object() || !params.contains("roi") || params["roi"].is_null()) {
    return std::nullopt;
  }
  const nlohmann::json& roi = params["roi"];
  std::optional<std::int64_t> v[6];
  if (roi.is_array() && roi.size() == 6) {
    for (std::size_t n = 0; n < 6; ++n) {
      v[n] = indexOf(roi[n]);
    }
  }
  core::VoxelBox box;
  bool valid = roi.is_array() && roi.size() == 6;
  for (int a = 0; valid && a < 3; ++a) {
    auto lo = v[2 * a], hi = v[2 * a + 1];
    // 3D Slicer's MONAI Label module sends the ROI's two corners mapped to voxel indices: on an
    // image whose axes run against RAS (most DICOM) a pair comes high first, and a flat ROI as
    // one index twice.
    if (lo && hi && *hi < *lo) {
      std::swap(lo, hi);
    }
    if (lo && hi && *hi == *lo) {
      hi = *hi + 1;
    }
    valid = lo && hi && *hi > *lo && *hi > 0 && *lo < std::int64_t(size[a]);
    if (valid) {
      box.lo[a] = std::size_t(std::max<std::int64_t>(*lo, 0));
      box.hi[a] = std::size_t(std::min<std::int64_t>(*hi, std::int64_t(size[a])));
    }
  }
  if (!valid) {
    throw core::Error(core::ErrorKind::InvalidInput, "roi",
                      "wants [i0, i1, j0, j1, k0, k1] (voxel indices, each pair half-open) "
                      "holding a voxel of the image, not " +
                          roi.dump());
  }
  return box;
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
