#include "core/ai/AiaaModels.h"
#include "core/ai/MonaiInfo.h"

#include <algorithm>
#include <cctype>

#include "core/Error.h"
#include "core/Text.h"

namespace delineate::core::ai {

using nlohmann::json;

namespace {

std::string fieldText(const json& j, const char* key) {
  if (!j.contains(key)) {
    return {};
  }
  const json& v = j[key];
  return v.is_string() ? v.get<std::string>() : v.is_number() ? v.dump() : std::string();
}

AiaaModel modelFrom(const json& j) {
  AiaaModel m;
  m.name = fieldText(j, "name");
  m.type = fieldText(j, "type");
  m.description = fieldText(j, "description");
  m.version = fieldText(j, "version");
  if (j.contains("labels") && j["labels"].is_array()) {
    for (const json& l : j["labels"]) {
      if (l.is_string()) {
        m.labels.push_back(l.get<std::string>());
      }
    }
  }
  if (j.contains("padding") && j["padding"].is_number() && j["padding"].get<double>() >= 0) {
    m.paddingMm = j["padding"].get<double>();
  }
  if (j.contains("roi") && j["roi"].is_array() && j["roi"].size() == 3) {
    Size3 roi{};
    bool ok = true;
    for (int a = 0; a < 3; ++a) {
      const json& v = j["roi"][std::size_t(a)];
      ok =
          ok && v.is_number_integer() && v.get<std::int64_t>() > 0 && v.get<std::int64_t>() <= 1024;
      roi[a] = ok ? std::size_t(v.get<std::int64_t>()) : 0;
    }
    if (ok) {
      m.roi = roi;
    }
  }
  const std::string deepgrow = fieldText(j, "deepgrow");
  if (equalsIgnoreCase(deepgrow, "2D")) {
    m.deepgrowDimension = 2;
  } else if (equalsIgnoreCase(deepgrow, "3D")) {
    m.deepgrowDimension = 3;
  }
  return m;
}

}  // namespace

bool AiaaModel::isDextr3d() const {
  return equalsIgnoreCase(type, "annotation") || equalsIgnoreCase(type, "dextr3d");
}

bool AiaaModel::isDeepgrow() const {
  return equalsIgnoreCase(type, "deepgrow") || deepgrowDimension.has_value();
}

std::vector<AiaaModel> parseAiaaModels(std::string_view body, const std::string& server) {
  const json j = parseServerJson(body, "the model list (GET /v1/models)", server);
  std::vector<AiaaModel> out;
  if (j.is_object()) {
    out.push_back(modelFrom(j));  // ?model=<name> answers one object
  } else if (j.is_array()) {
    for (const json& m : j) {
      if (m.is_object()) {
        out.push_back(modelFrom(m));
      }
    }
  } else {
    throw Error(ErrorKind::InvalidInput, server,
                "the model list (GET /v1/models) is not a JSON list of models");
  }
  out.erase(
      std::remove_if(out.begin(), out.end(), [](const AiaaModel& m) { return m.name.empty(); }),
      out.end());
  return out;
}

ServerInfo aiaaInfo(const std::vector<AiaaModel>& models, const std::string& server) {
  ServerInfo info;
  info.name = "Clara AIAA";
  info.description = server;
  for (const AiaaModel& a : models) {
    ModelInfo m;
    m.name = a.name;
    m.description = a.description;
    m.version = a.version;
    m.type = a.isDextr3d() ? "dextr3d" : a.isDeepgrow() ? "deepgrow" : a.type;
    m.dimension = a.deepgrowDimension.value_or(3);
    for (std::size_t i = 0; i < a.labels.size(); ++i) {
      m.labels.push_back({a.labels[i], int(i + 1), equalsIgnoreCase(a.labels[i], "background")});
    }
    info.models.push_back(std::move(m));
  }
  std::sort(info.models.begin(), info.models.end(),
            [](const ModelInfo& x, const ModelInfo& y) { return x.name < y.name; });
  return info;
}

}  // namespace delineate::core::ai
