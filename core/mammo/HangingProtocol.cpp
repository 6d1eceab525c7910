#include "core/mammo/HangingProtocol.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/Error.h"

namespace delineate::core::mammo {

using nlohmann::json;

namespace {

// The 1-based line of byte `offset` of `text`.
int lineAt(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(offset), '\n'));
}

// Where a field with a given value is written: the line of the `occurrence`-th (from 0)
// `"key": value` in the text, value as compact JSON; 0 when not found. (nlohmann::json keeps no
// positions; protocol files are small and this finds what a person would look for.)
int lineOfField(std::string_view text, const std::string& key, const json& value,
                int occurrence = 0) {
  const std::string quoted = "\"" + key + "\"";
  const std::string written = value.dump();
  int seen = 0;
  for (std::size_t at = text.find(quoted); at != std::string_view::npos;
       at = text.find(quoted, at + 1)) {
    std::size_t p = at + quoted.size();
    const auto skipSpace = [&] {
      while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) {
        ++p;
      }
    };
    skipSpace();
    if (p >= text.size() || text[p] != ':') {
      continue;
    }
    ++p;
    skipSpace();
    if (text.compare(p, written.size(), written) == 0 && seen++ == occurrence) {
      return lineAt(text, at);
    }
  }
  return 0;
}

[[noreturn]] void fail(const std::string& source, int line, const std::string& what) {
  throw Error(ErrorKind::InvalidInput, line > 0 ? source + ":" + std::to_string(line) : source,
              what);
}

struct Context {
  std::string_view text;
  std::string source;
  int protocolLine = 0;  // of the protocol being read (its "id")

  [[noreturn]] void failAt(const std::string& key, const json& value, const std::string& what,
                           int occurrence = 0) const {
    const int line = lineOfField(text, key, value, occurrence);
    fail(source, line > 0 ? line : protocolLine, what);
  }
};

std::string stringField(const json& j, const char* key, const Context& c, bool required) {
  if (!j.contains(key)) {
    if (required) {
      fail(c.source, c.protocolLine, std::string("missing \"") + key + "\"");
    }
    return {};
  }
  if (!j[key].is_string()) {
    c.failAt(key, j[key], std::string("\"") + key + "\" must be a string");
  }
  return j[key].get<std::string>();
}

ViewportSpec viewportFrom(const json& j, const Context& c) {
  if (!j.is_object()) {
    fail(c.source, c.protocolLine, "a viewport must be an object");
  }
  ViewportSpec v;
  const std::string laterality = stringField(j, "laterality", c, true);
  v.laterality = parseLaterality(laterality);
  if (v.laterality == Laterality::Unknown) {
    c.failAt("laterality", laterality,
             "unknown laterality \"" + laterality + "\" (expected \"R\" or \"L\")");
  }
  const std::string view = stringField(j, "view", c, true);
  v.view = parseViewCode(view);
  if (v.view == ViewCode::Unknown) {
    c.failAt("view", view,
             "unknown view \"" + view +
                 "\" (expected CC, MLO, ML, LM, XCCL, XCCM, FB, SIO, LMO "
                 "or AT)");
  }
  const std::string study = stringField(j, "study", c, false);
  if (study == "prior") {
    v.study = StudyChoice::Prior;
  } else if (!study.empty() && study != "current") {
    c.failAt("study", study, "unknown study \"" + study + "\" (expected current or prior)");
  }
  const std::string image = stringField(j, "image", c, false);
  if (image == "stack") {
    v.image = ImageChoice::Stack;
  } else if (!image.empty() && image != "2d") {
    c.failAt("image", image, "unknown image \"" + image + "\" (expected 2d or stack)");
  }
  // Default: the chest wall on the side of the breast, so that R and L face each other.
  const std::string wall = stringField(j, "chestWall", c, false);
  if (wall.empty()) {
    v.chestWall = v.laterality == Laterality::Right ? ChestWall::Right : ChestWall::Left;
  } else if (wall == "left" || wall == "right") {
    v.chestWall = wall == "left" ? ChestWall::Left : ChestWall::Right;
  } else {
    c.failAt("chestWall", wall, "unknown chestWall \"" + wall + "\" (expected left or right)");
  }
  return v;
}

HangingProtocol protocolFrom(const json& j, Context& c, int index) {
  if (!j.is_object()) {
    fail(c.source, 0, "protocol " + std::to_string(index + 1) + " is not an object");
  }
  HangingProtocol p;
  c.protocolLine = 0;
  if (j.contains("id") && j["id"].is_string()) {
    c.protocolLine = lineOfField(c.text, "id", j["id"]);
  }
  p.id = stringField(j, "id", c, true);
  if (p.id.empty() || p.id.find_first_of(" \t/\\") != std::string::npos) {
    c.failAt("id", p.id, "the id \"" + p.id + "\" must be a word without spaces or slashes");
  }
  p.name = stringField(j, "name", c, false);
  if (p.name.empty()) {
    p.name = p.id;
  }
  for (const char* key : {"rows", "columns"}) {
    if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<int>() < 1 ||
        j[key].get<int>() > 4) {
      if (j.contains(key)) {
        c.failAt(key, j[key], std::string("\"") + key + "\" must be a whole number from 1 to 4");
      }
      fail(c.source, c.protocolLine, std::string("missing \"") + key + "\"");
    }
  }
  p.rows = j["rows"].get<int>();
  p.columns = j["columns"].get<int>();
  if (!j.contains("viewports") || !j["viewports"].is_array()) {
    fail(c.source, c.protocolLine, "missing \"viewports\" (a list)");
  }
  for (const json& v : j["viewports"]) {
    p.viewports.push_back(viewportFrom(v, c));
  }
  if (int(p.viewports.size()) != p.rows * p.columns) {
    fail(c.source, c.protocolLine,
         "protocol \"" + p.id + "\" has " + std::to_string(p.viewports.size()) +
             " viewports for a " + std::to_string(p.rows) + "x" + std::to_string(p.columns) +
             " grid");
  }
  return p;
}

PriorRule priorRuleFrom(const json& j, const Context& c) {
  if (!j.is_object()) {
    c.failAt("prior", j, "\"prior\" must be an object");
  }
  PriorRule rule;
  for (const auto& [key, value] : j.items()) {
    if (key == "modality") {
      if (!value.is_string() || value.get<std::string>().empty()) {
        c.failAt(key, value, "\"modality\" must be a modality such as \"MG\"");
      }
      rule.modality = value.get<std::string>();
      continue;
    }
    int* field = key == "minMonthsEarlier"   ? &rule.minMonthsEarlier
                 : key == "maxMonthsEarlier" ? &rule.maxMonthsEarlier
                 : key == "fetch"            ? &rule.fetch
                                             : nullptr;
    if (field == nullptr) {
      c.failAt(key, value,
               "unknown prior field \"" + key +
                   "\" (expected modality, minMonthsEarlier, maxMonthsEarlier or fetch)");
    }
    if (!value.is_number_integer() || value.get<int>() < 0 || value.get<int>() > 1200) {
      c.failAt(key, value, "\"" + key + "\" must be a whole number from 0 to 1200");
    }
    *field = value.get<int>();
  }
  if (rule.maxMonthsEarlier > 0 && rule.maxMonthsEarlier < rule.minMonthsEarlier) {
    c.failAt("maxMonthsEarlier", rule.maxMonthsEarlier,
             "\"maxMonthsEarlier\" is less than \"minMonthsEarlier\"");
  }
  return rule;
}

}  // namespace

const HangingProtocol* HangingProtocolSet::find(std::string_view id) const {
  for (const HangingProtocol& p : protocols) {
    if (p.id == id) {
      return &p;
    }
  }
  return nullptr;
}

void HangingProtocolSet::merge(const HangingProtocolSet& other) {
  for (const HangingProtocol& p : other.protocols) {
    const auto same = std::find_if(protocols.begin(), protocols.end(),
                                   [&](const HangingProtocol& q) { return q.id == p.id; });
    if (same != protocols.end()) {
      *same = p;
    } else {
      protocols.push_back(p);
    }
  }
  if (!other.sequence.empty()) {
    sequence = other.sequence;
  }
  if (other.prior) {
    prior = other.prior;
  }
}

namespace {

// `known`: other protocols the sequence may name (the built-in ones for a site's file).
HangingProtocolSet parse(std::string_view text, const std::string& source,
                         const HangingProtocolSet* known) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    const std::string what = e.what();
    const auto colon = what.find("]: ");  // "[json.exception.parse_error.101] parse error at ..."
    fail(source, lineAt(text, e.byte > 0 ? e.byte - 1 : 0),
         "not JSON: " + (colon == std::string::npos ? what : what.substr(colon + 3)));
  } catch (const json::exception& e) {
    // Other parser errors, e.g. a number too large for a double (out_of_range).
    fail(source, 0, std::string("not JSON: ") + e.what());
  }
  Context c{text, source};
  if (!j.is_object() || !j.contains("protocols") || !j["protocols"].is_array()) {
    fail(source, 1, "expected an object with a \"protocols\" list");
  }
  HangingProtocolSet set;
  int index = 0;
  for (const json& p : j["protocols"]) {
    HangingProtocol protocol = protocolFrom(p, c, index++);
    if (set.find(protocol.id) != nullptr) {
      c.failAt("id", protocol.id, "the id \"" + protocol.id + "\" is used twice", 1);
    }
    set.protocols.push_back(std::move(protocol));
  }
  if (j.contains("sequence")) {
    if (!j["sequence"].is_array()) {
      fail(source, lineOfField(text, "sequence", j["sequence"]), "\"sequence\" must be a list");
    }
    for (const json& id : j["sequence"]) {
      if (!id.is_string()) {
        fail(source, 0, "\"sequence\" lists protocol ids (strings)");
      }
      const std::string name = id.get<std::string>();
      if (set.find(name) == nullptr && (known == nullptr || known->find(name) == nullptr)) {
        fail(source, lineAt(text, text.find("\"" + name + "\"", text.find("\"sequence\""))),
             "the sequence names \"" + name + "\", which is no protocol");
      }
      set.sequence.push_back(name);
    }
  }
  if (j.contains("prior")) {
    set.prior = priorRuleFrom(j["prior"], c);
  }
  return set;
}

}  // namespace

HangingProtocolSet parseHangingProtocols(std::string_view text, const std::string& source) {
  return parse(text, source, &builtinHangingProtocols());
}

// For BuiltinHangingProtocols.cpp: the built-in set checked against itself only.
HangingProtocolSet parseBuiltinHangingProtocols(const char* text) {
  return parse(text, "built-in hanging protocols", nullptr);
}

HangingProtocolSet readHangingProtocols(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ErrorKind::Io, file.string(), "cannot read the hanging protocol file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseHangingProtocols(text.str(), file.string());
}

bool usableFor(const HangingProtocol& protocol, const std::vector<MammoView>& views) {
  const bool wantsStack =
      std::any_of(protocol.viewports.begin(), protocol.viewports.end(),
                  [](const ViewportSpec& v) { return v.image == ImageChoice::Stack; });
  return !wantsStack || std::any_of(views.begin(), views.end(), [](const MammoView& v) {
    return v.kind == MammoView::Kind::Stack;
  });
}

}  // namespace delineate::core::mammo
