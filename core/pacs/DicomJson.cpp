#include "core/pacs/DicomJson.h"

#include <cctype>

#include "core/Error.h"

namespace delineate::core::pacs {

namespace {

using nlohmann::json;

const json* element(const json& object, std::string_view tag) {
  if (!object.is_object()) {
    return nullptr;
  }
  std::string key(tag);
  if (auto it = object.find(key); it != object.end()) {
    return &*it;
  }
  for (char& c : key) {  // some servers write the hex digits in lowercase
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const auto it = object.find(key);
  return it != object.end() ? &*it : nullptr;
}

std::string valueText(const json& v) {
  if (v.is_string()) {
    return v.get<std::string>();
  }
  if (v.is_number_integer()) {
    return std::to_string(v.get<long long>());
  }
  if (v.is_number()) {
    json copy = v;
    return copy.dump();
  }
  if (v.is_object()) {  // PN: {"Alphabetic": "DOE^JANE", "Ideographic": ...}
    const auto it = v.find("Alphabetic");
    return it != v.end() && it->is_string() ? it->get<std::string>() : std::string();
  }
  return {};
}

json parseArray(std::string_view body, const std::string& where) {
  std::size_t first = body.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    return json::array();  // 204 No Content, or a server that sends nothing for no matches
  }
  json parsed = json::parse(body.begin(), body.end(), nullptr, false);
  if (parsed.is_discarded()) {
    throw Error(ErrorKind::InvalidInput, where, "the search answer is not JSON");
  }
  if (!parsed.is_array()) {
    throw Error(ErrorKind::InvalidInput, where,
                "the search answer is not a list of results (DICOM JSON array)");
  }
  for (const json& item : parsed) {
    if (!item.is_object()) {
      throw Error(ErrorKind::InvalidInput, where,
                  "a search result is not an object of DICOM JSON attributes");
    }
  }
  return parsed;
}

}  // namespace

std::vector<std::string> dicomJsonTexts(const json& object, std::string_view tag) {
  std::vector<std::string> out;
  const json* e = element(object, tag);
  if (e == nullptr || !e->is_object()) {
    return out;
  }
  const auto values = e->find("Value");
  if (values == e->end() || !values->is_array()) {
    return out;
  }
  for (const json& v : *values) {
    std::string text = valueText(v);
    if (!text.empty()) {
      out.push_back(std::move(text));
    }
  }
  return out;
}

std::string dicomJsonText(const json& object, std::string_view tag) {
  std::vector<std::string> all = dicomJsonTexts(object, tag);
  return all.empty() ? std::string() : std::move(all.front());
}

int dicomJsonNumber(const json& object, std::string_view tag) {
  const std::string text = dicomJsonText(object, tag);
  if (text.empty()) {
    return -1;
  }
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    return used > 0 && v >= 0 && v <= 0x7fffffff ? static_cast<int>(v) : -1;
  } catch (const std::exception&) {
    return -1;
  }
}

std::vector<StudyRecord> studiesFromDicomJson(std::string_view body, const std::string& where) {
  std::vector<StudyRecord> out;
  for (const json& r : parseArray(body, where)) {
    StudyRecord s;
    s.studyInstanceUid = dicomJsonText(r, "0020000D");
    if (s.studyInstanceUid.empty()) {
      continue;
    }
    s.patientName = dicomJsonText(r, "00100010");
    s.patientId = dicomJsonText(r, "00100020");
    s.patientBirthDate = dicomJsonText(r, "00100030");
    s.patientSex = dicomJsonText(r, "00100040");
    s.studyDate = dicomJsonText(r, "00080020");
    s.studyTime = dicomJsonText(r, "00080030");
    s.accessionNumber = dicomJsonText(r, "00080050");
    s.studyDescription = dicomJsonText(r, "00081030");
    s.modalities = dicomJsonTexts(r, "00080061");
    s.seriesCount = dicomJsonNumber(r, "00201206");
    s.instanceCount = dicomJsonNumber(r, "00201208");
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<SeriesRecord> seriesFromDicomJson(std::string_view body, const std::string& where) {
  std::vector<SeriesRecord> out;
  for (const json& r : parseArray(body, where)) {
    SeriesRecord s;
    s.seriesInstanceUid = dicomJsonText(r, "0020000E");
    if (s.seriesInstanceUid.empty()) {
      continue;
    }
    s.studyInstanceUid = dicomJsonText(r, "0020000D");
    s.modality = dicomJsonText(r, "00080060");
    s.seriesDescription = dicomJsonText(r, "0008103E");
    s.bodyPart = dicomJsonText(r, "00180015");
    s.seriesNumber = dicomJsonNumber(r, "00200011");
    s.instanceCount = dicomJsonNumber(r, "00201209");
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<InstanceRecord> instancesFromDicomJson(std::string_view body,
                                                   const std::string& where) {
  std::vector<InstanceRecord> out;
  for (const json& r : parseArray(body, where)) {
    InstanceRecord i;
    i.sopInstanceUid = dicomJsonText(r, "00080018");
    if (i.sopInstanceUid.empty()) {
      continue;
    }
    i.seriesInstanceUid = dicomJsonText(r, "0020000E");
    i.sopClassUid = dicomJsonText(r, "00080016");
    i.instanceNumber = dicomJsonNumber(r, "00200013");
    const int rows = dicomJsonNumber(r, "00280010");
    const int columns = dicomJsonNumber(r, "00280011");
    const int bits = dicomJsonNumber(r, "00280100");
    const int frames = dicomJsonNumber(r, "00280008");
    if (rows > 0 && columns > 0 && bits > 0) {
      i.pixelBytes = (long long)rows * columns * ((bits + 7) / 8) * (frames > 0 ? frames : 1);
    }
    out.push_back(std::move(i));
  }
  return out;
}

}  // namespace delineate::core::pacs
