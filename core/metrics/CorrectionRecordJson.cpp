// The JSON form of a correction record (CorrectionRecord.h); format: docs/metrics.md.
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/Error.h"
#include "core/metrics/CorrectionRecord.h"
#include "core/metrics/JsonNumber.h"

namespace delineate::core {

using Json = nlohmann::ordered_json;

namespace {

constexpr const char* kFormat = "delineate-correction-record";
constexpr int kVersion = 1;

double numberFrom(const Json& j, const char* key) {
  const Json& v = j.at(key);
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (s == "inf") {
      return inf;
    }
    if (s == "-inf") {
      return -inf;
    }
    if (s == "nan") {
      return std::numeric_limits<double>::quiet_NaN();
    }
    throw std::invalid_argument(std::string("\"") + key + "\" is not a number: " + s);
  }
  return v.get<double>();
}

Json labelJson(const CorrectionLabel& l) {
  Json slices = Json::array();
  for (const CorrectionSlice& s : l.slices) {
    slices.push_back(Json{{"k", s.k}, {"added", s.added}, {"removed", s.removed}});
  }
  return Json{{"label", l.label},
              {"proposal_label", l.proposalLabel},
              {"segment", l.segment},
              {"dice", jsonNumber(l.dice)},
              {"hd95_mm", jsonNumber(l.hd95Mm)},
              {"hausdorff_mm", jsonNumber(l.hausdorffMm)},
              {"assd_mm", jsonNumber(l.assdMm)},
              {"proposal_voxels", l.proposalVoxels},
              {"final_voxels", l.finalVoxels},
              {"added_voxels", l.addedVoxels},
              {"removed_voxels", l.removedVoxels},
              {"slices", std::move(slices)}};
}

std::uint16_t labelValue(const Json& j, const char* key) {
  const int value = j.at(key).get<int>();
  if (value < 0 || value > 65535) {
    throw std::invalid_argument(std::string("\"") + key + "\" is outside 0..65535");
  }
  return std::uint16_t(value);
}

CorrectionLabel labelFrom(const Json& j) {
  CorrectionLabel l;
  l.label = labelValue(j, "label");
  l.proposalLabel = j.contains("proposal_label") ? labelValue(j, "proposal_label") : l.label;
  l.segment = j.value("segment", "");
  l.dice = numberFrom(j, "dice");
  l.hd95Mm = numberFrom(j, "hd95_mm");
  l.hausdorffMm = numberFrom(j, "hausdorff_mm");
  l.assdMm = numberFrom(j, "assd_mm");
  l.proposalVoxels = j.at("proposal_voxels").get<std::size_t>();
  l.finalVoxels = j.at("final_voxels").get<std::size_t>();
  l.addedVoxels = j.at("added_voxels").get<std::size_t>();
  l.removedVoxels = j.at("removed_voxels").get<std::size_t>();
  for (const Json& s : j.value("slices", Json::array())) {
    l.slices.push_back({s.at("k").get<std::size_t>(), s.at("added").get<std::size_t>(),
                        s.at("removed").get<std::size_t>()});
  }
  return l;
}

}  // namespace

std::string correctionRecordJson(const CorrectionRecord& r) {
  Json labels = Json::array();
  for (const CorrectionLabel& l : r.labels) {
    labels.push_back(labelJson(l));
  }
  Json tools = Json::object();
  for (const auto& [tool, uses] : r.tools) {
    tools[tool] = uses;
  }
  const Json out{{"format", kFormat},
                 {"version", kVersion},
                 {"label_map", r.labelMap},
                 {"image", r.image},
                 {"reader", r.reader},
                 {"backend", r.backend},
                 {"model", r.model},
                 {"model_version", r.modelVersion},
                 {"accepted_at", r.acceptedAt},
                 {"saved_at", r.savedAt},
                 {"clicks", r.clicks},
                 {"strokes", r.strokes},
                 {"tools", std::move(tools)},
                 {"active_editing_seconds", jsonNumber(r.activeEditingSeconds)},
                 {"labels", std::move(labels)}};
  return out.dump(2) + "\n";
}

CorrectionRecord correctionRecordFromJson(const std::string& text, const std::string& source) {
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::exception& e) {
    throw Error(ErrorKind::InvalidInput, source, std::string("not valid JSON: ") + e.what());
  }
  const bool isRecord = doc.is_object() && doc.contains("format") && doc["format"].is_string() &&
                        doc["format"] == kFormat;
  if (!isRecord) {
    throw Error(ErrorKind::InvalidInput, source,
                std::string("not a correction record (no \"format\": \"") + kFormat + "\")");
  }
  CorrectionRecord r;
  try {
    const int version = doc.at("version").get<int>();
    if (version > kVersion) {
      throw Error(ErrorKind::Unsupported, source,
                  "correction record version " + std::to_string(version) + " is newer than " +
                      std::to_string(kVersion));
    }
    r.labelMap = doc.value("label_map", "");
    r.image = doc.value("image", "");
    r.reader = doc.value("reader", "");
    r.backend = doc.value("backend", "");
    r.model = doc.value("model", "");
    r.modelVersion = doc.value("model_version", "");
    r.acceptedAt = doc.value("accepted_at", "");
    r.savedAt = doc.value("saved_at", "");
    r.clicks = doc.value("clicks", 0);
    r.strokes = doc.value("strokes", 0);
    const Json tools = doc.value("tools", Json::object());
    if (!tools.is_object()) {
      throw std::invalid_argument("\"tools\" is not an object");
    }
    for (const auto& [tool, uses] : tools.items()) {
      r.tools[tool] = uses.get<int>();
    }
    r.activeEditingSeconds =
        doc.contains("active_editing_seconds") ? numberFrom(doc, "active_editing_seconds") : 0.0;
    for (const Json& l : doc.at("labels")) {
      r.labels.push_back(labelFrom(l));
    }
  } catch (const Json::exception& e) {
    throw Error(ErrorKind::InvalidInput, source, std::string("bad correction record: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw Error(ErrorKind::InvalidInput, source, std::string("bad correction record: ") + e.what());
  }
  return r;
}

}  // namespace delineate::core
