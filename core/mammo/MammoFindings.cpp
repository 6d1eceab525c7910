// The findings file: JSON read (errors name the file and line) and write. The MONAI Label result
// reader is in MammoInferFindings.cpp.
#include "core/mammo/MammoFindings.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/Base64.h"
#include "core/Error.h"
#include "core/io/AtomicFile.h"
#include "core/mammo/JsonLocator.h"

namespace delineate::core::mammo {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "delineate-mammo-findings";
constexpr const char* kBase64Encoding = "base64-float32le";

std::optional<RenderingIntent> renderingIntentOf(const std::string& key) {
  for (const RenderingIntent i : {RenderingIntent::Required, RenderingIntent::Optional,
                                  RenderingIntent::NotForPresentation}) {
    if (key == keyOf(i)) {
      return i;
    }
  }
  return std::nullopt;
}

struct Reader {
  std::string_view text;
  std::string source;

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    const int line = lineOfPointer(text, pointer);
    throw Error(ErrorKind::InvalidInput, line > 0 ? source + ":" + std::to_string(line) : source,
                what);
  }

  const json* member(const json& object, const std::string& pointer, const char* key,
                     bool required) const {
    const auto it = object.find(key);
    if (it == object.end() || (!required && it->is_null())) {
      if (required) {
        fail(pointer, std::string("missing \"") + key + "\"");
      }
      return nullptr;
    }
    return &*it;
  }

  std::string string(const json& object, const std::string& pointer, const char* key,
                     bool required) const {
    const json* v = member(object, pointer, key, required);
    if (v == nullptr) {
      return {};
    }
    if (!v->is_string()) {
      fail(pointer + "/" + key, std::string("\"") + key + "\" must be a string");
    }
    return v->get<std::string>();
  }

  double number(const json& value, const std::string& pointer, const std::string& name) const {
    if (!value.is_number() || !std::isfinite(value.get<double>())) {
      fail(pointer, name + " must be a number");
    }
    return value.get<double>();
  }

  double score(const json& value, const std::string& pointer, const std::string& name) const {
    const double s = number(value, pointer, name);
    if (s < 0 || s > 1) {
      fail(pointer, name + " " + value.dump() + " is outside 0..1");
    }
    return s;
  }

  std::size_t count(const json& object, const std::string& pointer, const char* key) const {
    const json& v = *member(object, pointer, key, true);
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 ||
        v.get<std::int64_t>() > std::int64_t(kMaxHeatmapValues)) {
      fail(pointer + "/" + key, std::string("the heatmap's \"") + key +
                                    "\" must be a whole number from 1 to " +
                                    std::to_string(kMaxHeatmapValues));
    }
    return v.get<std::size_t>();
  }

  FindingMark mark(const json& j, const std::string& p) const {
    if (!j.is_object()) {
      fail(p, "a mark must be an object");
    }
    FindingMark m;
    m.kind = string(j, p, "kind", true);
    if (m.kind.empty()) {
      fail(p + "/kind", "a mark's \"kind\" is empty");
    }
    m.column = number(*member(j, p, "column", true), p + "/column", "\"column\"");
    m.row = number(*member(j, p, "row", true), p + "/row", "\"row\"");
    if (const json* s = member(j, p, "score", false)) {
      m.score = score(*s, p + "/score", "the score");
    } else {
      m.scored = false;
    }
    if (const json* f = member(j, p, "frame", false)) {
      if (!f->is_number_integer() || f->get<std::int64_t>() < 0 ||
          f->get<std::int64_t>() > 100000) {
        fail(p + "/frame", "\"frame\" must be a frame number from 0");
      }
      m.frame = static_cast<int>(f->get<std::int64_t>());
    }
    if (const json* s = member(j, p, "probabilityOfCancer", false)) {
      m.probability = score(*s, p + "/probabilityOfCancer", "the probability of cancer");
    }
    m.x0 = m.x1 = m.column;
    m.y0 = m.y1 = m.row;
    if (const json* box = member(j, p, "box", false)) {
      if (!box->is_array() || box->size() != 4) {
        fail(p + "/box", "\"box\" must be a list of 4 numbers [x0, y0, x1, y1]");
      }
      double c[4];
      for (std::size_t k = 0; k < 4; ++k) {
        c[k] = number((*box)[k], p + "/box/" + std::to_string(k), "a box corner");
      }
      if (c[0] > c[2] || c[1] > c[3]) {
        fail(p + "/box", "the box " + box->dump() + " has x0 > x1 or y0 > y1");
      }
      m.x0 = c[0], m.y0 = c[1], m.x1 = c[2], m.y1 = c[3];
    }
    const std::string intent = string(j, p, "intent", false);
    if (!intent.empty()) {
      const auto parsed = renderingIntentOf(intent);
      if (!parsed) {
        fail(p + "/intent",
             "unknown \"intent\" \"" + intent + "\" (required, optional or notForPresentation)");
      }
      m.intent = *parsed;
    }
    if (const json* outline = member(j, p, "outline", false)) {
      if (!outline->is_array()) {
        fail(p + "/outline", "\"outline\" must be a list of [column, row] points");
      }
      for (std::size_t k = 0; k < outline->size(); ++k) {
        const json& point = (*outline)[k];
        const std::string at = p + "/outline/" + std::to_string(k);
        if (!point.is_array() || point.size() != 2) {
          fail(at, "an outline point must be [column, row]");
        }
        m.outline.push_back({number(point[0], at + "/0", "an outline column"),
                             number(point[1], at + "/1", "an outline row")});
      }
    }
    return m;
  }

  FindingHeatmap heatmap(const json& j, const std::string& p) const {
    if (!j.is_object()) {
      fail(p, "\"heatmap\" must be an object");
    }
    FindingHeatmap h;
    h.columns = count(j, p, "columns");
    h.rows = count(j, p, "rows");
    if (h.columns * h.rows > kMaxHeatmapValues) {
      fail(p, "the heatmap of " + std::to_string(h.columns) + "x" + std::to_string(h.rows) +
                  " is larger than " + std::to_string(kMaxHeatmapValues) + " values");
    }
    if (const json* step = member(j, p, "step", false)) {
      h.step = number(*step, p + "/step", "\"step\"");
      if (h.step <= 0) {
        fail(p + "/step", "\"step\" must be positive");
      }
    }
    const std::size_t expected = h.columns * h.rows;
    const std::string encoding = string(j, p, "encoding", false);
    const json& values = *member(j, p, "values", true);
    const std::string vp = p + "/values";
    const auto wrongCount = [&](std::size_t n) {
      fail(vp, "the heatmap has " + std::to_string(n) + " values for " + std::to_string(h.columns) +
                   "x" + std::to_string(h.rows) + " (" + std::to_string(expected) + ")");
    };
    if (encoding == kBase64Encoding || (encoding.empty() && values.is_string())) {
      if (!values.is_string()) {
        fail(vp, std::string("\"values\" must be a string for \"") + kBase64Encoding + "\"");
      }
      const auto bytes = base64Decode(values.get_ref<const std::string&>());
      if (!bytes) {
        fail(vp, "the heatmap's \"values\" are not base64");
      }
      if (bytes->size() % 4 != 0) {
        fail(vp, "the heatmap's \"values\" are not whole float32 numbers");
      }
      if (bytes->size() / 4 != expected) {
        wrongCount(bytes->size() / 4);
      }
      h.values.resize(expected);
      for (std::size_t i = 0; i < expected; ++i) {
        std::uint32_t u = 0;
        for (int b = 3; b >= 0; --b) {
          u = (u << 8) | (*bytes)[4 * i + std::size_t(b)];
        }
        h.values[i] = std::bit_cast<float>(u);
      }
    } else if (encoding.empty() || encoding == "array") {
      if (!values.is_array()) {
        fail(vp, "\"values\" must be a list of numbers (or base64 with \"encoding\": \"" +
                     std::string(kBase64Encoding) + "\")");
      }
      if (values.size() != expected) {
        wrongCount(values.size());
      }
      h.values.reserve(expected);
      for (std::size_t i = 0; i < expected; ++i) {
        const double v =
            number(values[i], vp + "/" + std::to_string(i), "heatmap value " + std::to_string(i));
        if (v < 0 || v > 1) {
          fail(vp + "/" + std::to_string(i), "heatmap value " + std::to_string(i) + " (" +
                                                 values[i].dump() + ") is outside 0..1");
        }
        h.values.push_back(float(v));
      }
    } else {
      fail(p + "/encoding", "unknown heatmap encoding \"" + encoding + "\" (expected \"" +
                                kBase64Encoding + "\" or \"array\")");
    }
    for (std::size_t i = 0; i < expected; ++i) {
      if (!(h.values[i] >= 0.0f && h.values[i] <= 1.0f)) {
        fail(encoding == kBase64Encoding || values.is_string() ? vp : vp + "/" + std::to_string(i),
             "heatmap value " + std::to_string(i) + " (" + std::to_string(h.values[i]) +
                 ") is outside 0..1");
      }
    }
    return h;
  }

  ImageFindings image(const json& j, const std::string& p) const {
    if (!j.is_object()) {
      fail(p, "an image must be an object");
    }
    ImageFindings im;
    im.imageId = string(j, p, "imageId", true);
    if (const json* marks = member(j, p, "marks", false)) {
      if (!marks->is_array()) {
        fail(p + "/marks", "\"marks\" must be a list");
      }
      for (std::size_t i = 0; i < marks->size(); ++i) {
        im.marks.push_back(mark((*marks)[i], p + "/marks/" + std::to_string(i)));
      }
    }
    if (const json* h = member(j, p, "heatmap", false)) {
      im.heatmap = heatmap(*h, p + "/heatmap");
    }
    return im;
  }
};

void putLittleEndian(float value, std::uint8_t* out) {
  const auto u = std::bit_cast<std::uint32_t>(value);
  for (int b = 0; b < 4; ++b) {
    out[b] = std::uint8_t(u >> (8 * b));
  }
}

}  // namespace

StudyFindings parseStudyFindings(std::string_view text, const std::string& source) {
  const Reader r{text, source};
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    const std::string what = e.what();
    const auto colon = what.find("]: ");  // "[json.exception.parse_error.101] parse error at ..."
    throw Error(ErrorKind::InvalidInput,
                source + ":" + std::to_string(lineAtOffset(text, e.byte > 0 ? e.byte - 1 : 0)),
                "not JSON: " + (colon == std::string::npos ? what : what.substr(colon + 3)));
  } catch (const json::exception& e) {
    throw Error(ErrorKind::InvalidInput, source, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object()) {
    r.fail("", "expected an object with an \"images\" list");
  }
  const std::string format = r.string(j, "", "format", false);
  if (!format.empty() && format != kFormat) {
    r.fail("/format", "unknown format \"" + format + "\" (expected \"" + kFormat + "\")");
  }
  if (const json* version = r.member(j, "", "version", false)) {
    if (!version->is_number_integer() || version->get<std::int64_t>() != 1) {
      r.fail("/version", "unsupported version " + version->dump() + " (this reader knows 1)");
    }
  }
  StudyFindings f;
  f.source = r.string(j, "", "source", false);
  if (const json* demo = r.member(j, "", "demonstration", false)) {
    if (!demo->is_boolean()) {
      r.fail("/demonstration", "\"demonstration\" must be true or false");
    }
    f.demonstration = demo->get<bool>();
  }
  if (const json* risk = r.member(j, "", "riskScore", false)) {
    f.riskScore = r.score(*risk, "/riskScore", "the risk score");
  }
  f.processingSummary = r.string(j, "", "processingSummary", false);
  if (const json* failed = r.member(j, "", "failedAlgorithms", false)) {
    if (!failed->is_array()) {
      r.fail("/failedAlgorithms", "\"failedAlgorithms\" must be a list of names");
    }
    for (std::size_t k = 0; k < failed->size(); ++k) {
      if (!(*failed)[k].is_string()) {
        r.fail("/failedAlgorithms/" + std::to_string(k), "an algorithm's name must be a string");
      }
      f.failedAlgorithms.push_back((*failed)[k].get<std::string>());
    }
  }
  const json* images = r.member(j, "", "images", true);
  if (!images->is_array()) {
    r.fail("/images", "\"images\" must be a list");
  }
  for (std::size_t i = 0; i < images->size(); ++i) {
    f.images.push_back(r.image((*images)[i], "/images/" + std::to_string(i)));
  }
  return f;
}

StudyFindings readStudyFindings(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ErrorKind::Io, file.string(), "cannot read the findings file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseStudyFindings(text.str(), file.string());
}

json toJson(const StudyFindings& findings) {
  json out = {{"format", kFormat},
              {"version", 1},
              {"source", findings.source},
              {"demonstration", findings.demonstration}};
  if (findings.riskScore) {
    out["riskScore"] = *findings.riskScore;
  }
  if (!findings.processingSummary.empty()) {
    out["processingSummary"] = findings.processingSummary;
  }
  if (!findings.failedAlgorithms.empty()) {
    out["failedAlgorithms"] = findings.failedAlgorithms;
  }
  out["images"] = json::array();
  for (const ImageFindings& im : findings.images) {
    json image = {{"imageId", im.imageId}, {"marks", json::array()}};
    for (const FindingMark& m : im.marks) {
      json mark = {{"kind", m.kind},
                   {"column", m.column},
                   {"row", m.row},
                   {"box", {m.x0, m.y0, m.x1, m.y1}}};
      if (m.scored) {
        mark["score"] = m.score;
      }
      if (m.probability) {
        mark["probabilityOfCancer"] = *m.probability;
      }
      if (m.frame) {
        mark["frame"] = *m.frame;
      }
      if (m.intent != RenderingIntent::Required) {
        mark["intent"] = keyOf(m.intent);
      }
      if (!m.outline.empty()) {
        mark["outline"] = json::array();
        for (const auto& point : m.outline) {
          mark["outline"].push_back({point[0], point[1]});
        }
      }
      image["marks"].push_back(std::move(mark));
    }
    if (im.heatmap) {
      const FindingHeatmap& h = *im.heatmap;
      std::vector<std::uint8_t> bytes(h.values.size() * 4);
      for (std::size_t i = 0; i < h.values.size(); ++i) {
        putLittleEndian(h.values[i], bytes.data() + 4 * i);
      }
      image["heatmap"] = {{"columns", h.columns},
                          {"rows", h.rows},
                          {"step", h.step},
                          {"encoding", kBase64Encoding},
                          {"values", base64Encode(bytes.data(), bytes.size())}};
    }
    out["images"].push_back(std::move(image));
  }
  return out;
}

void writeStudyFindings(const StudyFindings& findings, const std::filesystem::path& file) {
  writeTextAtomically(file, toJson(findings).dump(1) + "\n", "the findings file");
}

const char* keyOf(RenderingIntent intent) {
  switch (intent) {
    case RenderingIntent::Optional:
      return "optional";
    case RenderingIntent::NotForPresentation:
      return "notForPresentation";
    case RenderingIntent::Required:
      break;
  }
  return "required";
}

}  // namespace delineate::core::mammo
