#include "core/io/SegmentTableJson.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/Error.h"
#include "core/io/AtomicFile.h"

namespace delineate::core {

using nlohmann::json;

namespace {

json codeToJson(const CodedConcept& c) {
  return json{
      {"CodeValue", c.value}, {"CodingSchemeDesignator", c.scheme}, {"CodeMeaning", c.meaning}};
}

CodedConcept codeFromJson(const json& j) {
  CodedConcept c;
  if (j.is_object()) {
    c.value = j.value("CodeValue", "");
    c.scheme = j.value("CodingSchemeDesignator", "");
    c.meaning = j.value("CodeMeaning", "");
  }
  return c;
}

}  // namespace

std::string segmentTableToJson(const std::vector<Segment>& segments,
                               const std::string& seriesDescription) {
  json list = json::array();
  for (const Segment& s : segments) {
    json a{{"labelID", s.label},
           {"SegmentLabel", s.name},
           {"SegmentDescription", s.description.empty() ? s.name : s.description},
           {"SegmentAlgorithmType", s.algorithmType},
           {"recommendedDisplayRGBValue", {s.color[0], s.color[1], s.color[2]}}};
    if (!s.category.empty()) {
      a["SegmentedPropertyCategoryCodeSequence"] = codeToJson(s.category);
    }
    if (!s.type.empty()) {
      a["SegmentedPropertyTypeCodeSequence"] = codeToJson(s.type);
    }
    if (!s.typeModifier.empty()) {
      a["SegmentedPropertyTypeModifierCodeSequence"] = codeToJson(s.typeModifier);
    }
    // Delineate's own display state; other readers ignore unknown keys.
    a["delineate"] = {{"visible", s.visible}, {"locked", s.locked}};
    list.push_back(std::move(a));
  }
  json doc{{"ContentCreatorName", "Delineate"},
           {"SeriesDescription", seriesDescription},
           {"ContentLabel", "SEGMENTATION"},
           {"segmentAttributes", json::array({list})}};
  return doc.dump(2);
}

std::vector<Segment> segmentTableFromJson(const std::string& text, const std::string& source) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw Error(ErrorKind::InvalidInput, source, std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("segmentAttributes") ||
      !doc["segmentAttributes"].is_array()) {
    throw Error(ErrorKind::InvalidInput, source,
                "no \"segmentAttributes\" list (dcmqi segment JSON)");
  }
  std::vector<Segment> out;
  try {
    for (const json& group : doc["segmentAttributes"]) {
      if (!group.is_array()) {
        throw Error(ErrorKind::InvalidInput, source, "\"segmentAttributes\" must hold lists");
      }
      for (const json& a : group) {
        Segment s;
        const int label = a.at("labelID").get<int>();
        if (label < 1 || label > 65535) {
          throw Error(ErrorKind::InvalidInput, source,
                      "labelID " + std::to_string(label) + " is outside 1..65535");
        }
        s.label = static_cast<std::uint16_t>(label);
        s.name = a.value("SegmentLabel",
                         a.value("SegmentDescription", "Segment " + std::to_string(label)));
        s.description = a.value("SegmentDescription", "");
        s.algorithmType = a.value("SegmentAlgorithmType", "MANUAL");
        if (a.contains("recommendedDisplayRGBValue")) {
          const json& rgb = a["recommendedDisplayRGBValue"];
          for (std::size_t k = 0; k < 3 && k < rgb.size(); ++k) {
            s.color[k] = static_cast<std::uint8_t>(std::clamp(rgb[k].get<int>(), 0, 255));
          }
        }
        s.category = codeFromJson(a.value("SegmentedPropertyCategoryCodeSequence", json()));
        s.type = codeFromJson(a.value("SegmentedPropertyTypeCodeSequence", json()));
        s.typeModifier = codeFromJson(a.value("SegmentedPropertyTypeModifierCodeSequence", json()));
        if (a.contains("delineate")) {
          s.visible = a["delineate"].value("visible", true);
          s.locked = a["delineate"].value("locked", false);
        }
        out.push_back(std::move(s));
      }
    }
  } catch (const json::exception& e) {
    throw Error(ErrorKind::InvalidInput, source, std::string("bad segment entry: ") + e.what());
  }
  return out;
}

void writeSegmentTable(const std::vector<Segment>& segments, const std::filesystem::path& path) {
  writeTextAtomically(path, segmentTableToJson(segments) + "\n", "segment table");
}

std::vector<Segment> readSegmentTable(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    throw Error(ErrorKind::Io, path.string(), "cannot open segment table");
  }
  std::ostringstream s;
  s << f.rdbuf();
  return segmentTableFromJson(s.str(), path.string());
}

}  // namespace delineate::core
