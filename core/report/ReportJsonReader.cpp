// Reading the shared parts of report files, with errors naming the file and line.
#include "core/report/ReportJsonReader.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/Error.h"
#include "core/mammo/JsonLocator.h"

namespace delineate::core::report {

using nlohmann::json;

json ReportJsonReader::parse(const char* format, int version) const {
  json j;
  try {
    j = json::parse(text_);
  } catch (const json::parse_error& e) {
    const std::string what = e.what();
    const auto colon = what.find("]: ");
    throw Error(
        ErrorKind::InvalidInput,
        source_ + ":" + std::to_string(mammo::lineAtOffset(text_, e.byte > 0 ? e.byte - 1 : 0)),
        "not JSON: " + (colon == std::string::npos ? what : what.substr(colon + 3)));
  } catch (const json::exception& e) {
    throw Error(ErrorKind::InvalidInput, source_, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object()) {
    fail("", "a report must be a JSON object");
  }
  const std::string f = string(j, "", "format", true);
  if (f != format) {
    fail("/format", "unknown format \"" + f + "\" (expected \"" + format + "\")");
  }
  const json& v = *member(j, "", "version", true);
  if (!v.is_number_integer() || v.get<long long>() != version) {
    fail("/version", "unsupported version " + v.dump() + " (this reader knows " +
                         std::to_string(version) + ")");
  }
  return j;
}

void ReportJsonReader::fail(const std::string& pointer, const std::string& what) const {
  const int line = mammo::lineOfPointer(text_, pointer);
  throw Error(ErrorKind::InvalidInput, line > 0 ? source_ + ":" + std::to_string(line) : source_,
              what);
}

const json* ReportJsonReader::member(const json& object, const std::string& pointer,
                                     const char* key, bool required) const {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) {
      fail(pointer, std::string("missing \"") + key + "\"");
    }
    return nullptr;
  }
  return &*it;
}

const json& ReportJsonReader::object(const json& parent, const std::string& pointer,
                                     const char* key) const {
  const json& j = *member(parent, pointer, key, true);
  if (!j.is_object()) {
    fail(pointer + "/" + key, std::string("\"") + key + "\" must be an object");
  }
  return j;
}

std::string ReportJsonReader::string(const json& object, const std::string& pointer,
                                     const char* key, bool required) const {
  const json* v = member(object, pointer, key, required);
  if (v == nullptr) {
    return {};
  }
  if (!v->is_string()) {
    fail(pointer + "/" + key, std::string("\"") + key + "\" must be a string");
  }
  return v->get<std::string>();
}

bool ReportJsonReader::boolean(const json& object, const std::string& pointer,
                               const char* key) const {
  const json* v = member(object, pointer, key, false);
  if (v == nullptr) {
    return false;
  }
  if (!v->is_boolean()) {
    fail(pointer + "/" + key, std::string("\"") + key + "\" must be true or false");
  }
  return v->get<bool>();
}

std::optional<double> ReportJsonReader::number(const json& object, const std::string& pointer,
                                               const char* key, bool required) const {
  const json* v = member(object, pointer, key, required);
  if (v == nullptr) {
    return std::nullopt;
  }
  if (!v->is_number() || !std::isfinite(v->get<double>())) {
    fail(pointer + "/" + key, std::string("\"") + key + "\" must be a number");
  }
  return v->get<double>();
}

long long ReportJsonReader::integer(const json& object, const std::string& pointer, const char* key,
                                    long long lo, long long hi) const {
  const json& v = *member(object, pointer, key, true);
  if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi) {
    fail(pointer + "/" + key, std::string("\"") + key + "\" " + v.dump() +
                                  " must be a whole number from " + std::to_string(lo) + " to " +
                                  std::to_string(hi));
  }
  return v.get<long long>();
}

void ReportJsonReader::checkProvenance(const json& field, const std::string& pointer,
                                       Provenance derived) const {
  const std::string written = string(field, pointer, "provenance", false);
  if (written.empty()) {
    return;
  }
  const auto p = parseKey<Provenance>(written);
  if (!p) {
    fail(pointer + "/provenance",
         "unknown provenance \"" + written + "\" (expected " + keyList<Provenance>() + ")");
  }
  if (*p != derived) {
    fail(pointer + "/provenance", "the provenance says \"" + written +
                                      "\" but the value, the AI's value and \"reviewed\" give \"" +
                                      keyOf(derived) + "\"");
  }
}

ReportLink ReportJsonReader::link(const json& parent, const std::string& parentPointer) const {
  const json* j = member(parent, parentPointer, "link", false);
  if (j == nullptr) {
    return {};
  }
  const std::string p = parentPointer + "/link";
  if (!j->is_object()) {
    fail(p, "\"link\" must be an object");
  }
  const std::string kind = string(*j, p, "kind", true);
  ReportLink l;
  if (kind == "cad-mark") {
    l = ReportLink::cadMark(string(*j, p, "imageId", true),
                            int(integer(*j, p, "markIndex", 0, 1 << 30)));
  } else if (kind == "segment") {
    l = ReportLink::toSegment(string(*j, p, "labelMap", true),
                              std::uint16_t(integer(*j, p, "segment", 1, 65535)));
  } else if (kind != "none") {
    fail(p + "/kind", "unknown link kind \"" + kind + "\" (expected cad-mark, segment, none)");
  }
  l.broken = boolean(*j, p, "broken");
  return l;
}

ReportSubject ReportJsonReader::subject(const json& root) const {
  const json* j = member(root, "", "subject", false);
  if (j == nullptr) {
    return {};
  }
  if (!j->is_object()) {
    fail("/subject", "\"subject\" must be an object");
  }
  const std::string p = "/subject";
  return {string(*j, p, "patientName", false), string(*j, p, "patientId", false),
          string(*j, p, "birthDate", false), string(*j, p, "studyInstanceUid", false),
          string(*j, p, "accessionNumber", false)};
}

ReportSignOff ReportJsonReader::signOff(const json& root) const {
  std::optional<Signature> signature;
  if (const json* s = member(root, "", "signature", false)) {
    if (!s->is_object()) {
      fail("/signature", "\"signature\" must be an object with \"name\" and \"time\"");
    }
    signature =
        Signature{string(*s, "/signature", "name", true), string(*s, "/signature", "time", true)};
  }
  std::vector<Addendum> addenda;
  if (const json* a = member(root, "", "addenda", false)) {
    if (!a->is_array()) {
      fail("/addenda", "\"addenda\" must be a list");
    }
    if (!a->empty() && !signature) {
      fail("/addenda", "a report without a signature has addenda");
    }
    for (std::size_t i = 0; i < a->size(); ++i) {
      const std::string p = "/addenda/" + std::to_string(i);
      if (!(*a)[i].is_object()) {
        fail(p, "an addendum must be an object with \"text\", \"name\" and \"time\"");
      }
      addenda.push_back({string((*a)[i], p, "text", true),
                         {string((*a)[i], p, "name", true), string((*a)[i], p, "time", true)}});
    }
  }
  return ReportSignOff::restore(std::move(signature), std::move(addenda));
}

std::string readReportText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ErrorKind::Io, file.string(), "cannot read the report");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace delineate::core::report
