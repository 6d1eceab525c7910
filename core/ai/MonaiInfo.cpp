#include "core/ai/MonaiInfo.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/Error.h"
#include "core/Text.h"

namespace delineate::core::ai {

using nlohmann::json;

namespace {

constexpr int kMaxJsonDepth = 128;
constexpr std::size_t kExcerpt = 60;

std::string excerpt(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, kExcerpt)) {
    const auto u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : ' ';
  }
  return s.size() > kExcerpt ? out + "..." : out;
}

// An integral JSON number (or a string of digits) that fits an int; nullopt otherwise.
std::optional<int> asInt(const json& j) {
  long long v = 0;
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
      return std::nullopt;
    }
    v = static_cast<long long>(u);
  } else if (j.is_number_integer()) {
    v = j.get<std::int64_t>();
  } else if (j.is_number_float()) {
    const double d = j.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::abs(d) > 2e9) {
      return std::nullopt;
    }
    v = static_cast<long long>(d);
  } else if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(v);
}

long long asCount(const json& j) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    return u > static_cast<std::uint64_t>(std::numeric_limits<long long>::max())
               ? std::numeric_limits<long long>::max()
               : static_cast<long long>(u);
  }
  if (j.is_number_integer()) {
    return j.get<std::int64_t>();
  }
  if (j.is_number_float()) {
    const double d = j.get<double>();
    return std::isfinite(d) && std::abs(d) < 9e18 ? static_cast<long long>(d) : 0;
  }
  return 0;
}

// A text field; numbers and bools as their JSON text; anything else empty.
std::string text(const json& object, const char* key) {
  if (!object.is_object()) {
    return {};
  }
  const auto it = object.find(key);
  if (it == object.end()) {
    return {};
  }
  if (it->is_string()) {
    return it->get<std::string>();
  }
  if (it->is_number() || it->is_boolean()) {
    return it->dump();
  }
  return {};
}

const json& member(const json& object, const char* key) {
  static const json null;
  if (!object.is_object()) {
    return null;
  }
  const auto it = object.find(key);
  return it == object.end() ? null : *it;
}

bool isBackgroundLabel(const std::string& name, int value) {
  return value == 0 || equalsIgnoreCase(name, "background");
}

std::vector<ServerMethod> parseMethods(const json& j) {
  std::vector<ServerMethod> out;
  if (j.is_object()) {
    for (const auto& [name, value] : j.items()) {
      out.push_back({name, text(value, "description")});
    }
  } else if (j.is_array()) {
    for (const json& name : j) {
      if (name.is_string()) {
        out.push_back({name.get<std::string>(), {}});
      }
    }
  }
  return out;
}

}  // namespace

std::vector<ModelLabel> parseMonaiLabels(const json& labels) {
  std::vector<ModelLabel> out;
  if (labels.is_array()) {
    for (std::size_t n = 0; n < labels.size(); ++n) {
      if (labels[n].is_string() && n < static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        const int value = static_cast<int>(n + 1);
        const auto& name = labels[n].get_ref<const std::string&>();
        out.push_back({name, value, isBackgroundLabel(name, value)});
      }
    }
  } else if (labels.is_object()) {
    for (const auto& [name, value] : labels.items()) {
      if (const std::optional<int> v = asInt(value)) {
        out.push_back({name, *v, isBackgroundLabel(name, *v)});
      }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ModelLabel& a, const ModelLabel& b) { return a.value < b.value; });
  }
  return out;
}

std::vector<ModelOption> parseMonaiConfig(const json& config) {
  std::vector<ModelOption> out;
  if (!config.is_object()) {
    return out;
  }
  for (const auto& [key, value] : config.items()) {
    ModelOption option;
    option.key = key;
    if (value.is_array()) {
      option.choices.assign(value.begin(), value.end());
      if (!option.choices.empty()) {
        option.defaultValue = option.choices.front();
      }
    } else {
      option.defaultValue = value;
    }
    out.push_back(std::move(option));
  }
  return out;
}

json parseServerJson(std::string_view body, const std::string& what, const std::string& server) {
  const auto limitDepth = [&](int depth, json::parse_event_t, json&) {
    if (depth > kMaxJsonDepth) {
      throw Error(ErrorKind::InvalidInput, server,
                  what + " nests JSON deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    }
    return true;
  };
  try {
    return json::parse(body.begin(), body.end(), limitDepth);
  } catch (const json::exception&) {
    throw Error(ErrorKind::InvalidInput, server,
                what + " is not JSON" +
                    (body.empty() ? std::string(" (it is empty)")
                                  : " (it starts with '" + excerpt(body) + "')"));
  }
}

ServerInfo parseMonaiInfo(std::string_view body, const std::string& server) {
  const std::string what = "the server's answer to GET /info/";
  json j = parseServerJson(body, what, server);
  if (!j.is_object()) {
    throw Error(ErrorKind::InvalidInput, server,
                what + " is a JSON " + std::string(j.type_name()) +
                    ", not an object; is this a MONAI Label server?");
  }
  ServerInfo info;
  info.name = text(j, "name");
  info.version = text(j, "version");
  info.description = text(j, "description");
  info.labels = parseMonaiLabels(member(j, "labels"));
  const json& models = member(j, "models");
  if (models.is_object()) {
    for (const auto& [name, value] : models.items()) {
      ModelInfo model;
      model.name = name;
      model.type = text(value, "type");
      model.description = text(value, "description");
      model.version = text(value, "version");
      model.labels = parseMonaiLabels(member(value, "labels"));
      const std::optional<int> dimension = asInt(member(value, "dimension"));
      if (dimension && *dimension >= 1 && *dimension <= 4) {
        model.dimension = *dimension;
      }
      model.config = parseMonaiConfig(member(value, "config"));
      info.models.push_back(std::move(model));
    }
  }
  const json& trainers = member(j, "trainers");
  if (trainers.is_object()) {
    for (const auto& [name, value] : trainers.items()) {
      info.trainers.push_back({name, text(value, "description"),
                               parseMonaiConfig(member(value, "config")),
                               parseMonaiLabels(member(value, "labels"))});
    }
  }
  info.strategies = parseMethods(member(j, "strategies"));
  info.scoring = parseMethods(member(j, "scoring"));
  const json& datastore = member(j, "datastore");
  if (datastore.is_object()) {
    DatastoreStats stats;
    stats.total = asCount(member(datastore, "total"));
    stats.completed = asCount(member(datastore, "completed"));
    const json& tags = member(datastore, "label_tags");
    if (tags.is_object()) {
      for (const auto& [tag, count] : tags.items()) {
        stats.labelTags.emplace_back(tag, asCount(count));
      }
    }
    info.datastore = std::move(stats);
  }
  info.trainStats = member(j, "train_stats");
  if (info.trainStats.is_object()) {
    for (const auto& [trainer, stats] : info.trainStats.items()) {
      info.trainerStats.push_back(parseMonaiTrainStats(trainer, stats));
    }
  }
  info.raw = std::move(j);
  return info;
}

}  // namespace delineate::core::ai
