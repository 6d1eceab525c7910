#include "core/deid/DeidOptions.h"

#include <nlohmann/json.hpp>

#include "core/Error.h"

namespace delineate::core::deid {

namespace {

struct OptionField {
  const char* key;
  bool DeidOptions::*member;
  const char* code;    // CID 7050
  const char* phrase;  // De-identification Method text
};

constexpr OptionField kFields[] = {
    {"retainLongitudinalModifiedDates", &DeidOptions::retainLongitudinalModifiedDates, "113107",
     "Retain Longitudinal Temporal Information Modified Dates Option"},
    {"retainPatientCharacteristics", &DeidOptions::retainPatientCharacteristics, "113108",
     "Retain Patient Characteristics Option"},
    {"retainDeviceIdentity", &DeidOptions::retainDeviceIdentity, "113109",
     "Retain Device Identity Option"},
    {"cleanDescriptors", &DeidOptions::cleanDescriptors, "113105", "Clean Descriptors Option"},
};

}  // namespace

std::vector<std::string> DeidOptions::methodCodes() const {
  std::vector<std::string> codes{"113100"};
  for (const auto& f : kFields) {
    if (this->*f.member) {
      codes.emplace_back(f.code);
    }
  }
  return codes;
}

std::vector<std::string> DeidOptions::methodPhrases() const {
  std::vector<std::string> phrases{"Basic Application Confidentiality Profile"};
  for (const auto& f : kFields) {
    if (this->*f.member) {
      phrases.emplace_back(f.phrase);
    }
  }
  return phrases;
}

nlohmann::json toJson(const DeidOptions& options) {
  nlohmann::json json = nlohmann::json::object();
  for (const auto& f : kFields) {
    json[f.key] = options.*f.member;
  }
  return json;
}

DeidOptions deidOptionsFromJson(const nlohmann::json& json, const std::string& where) {
  if (!json.is_object()) {
    throw Error(ErrorKind::InvalidInput, where, "de-identification options must be a JSON object");
  }
  DeidOptions options;
  for (const auto& [key, value] : json.items()) {
    const OptionField* field = nullptr;
    for (const auto& f : kFields) {
      if (key == f.key) {
        field = &f;
      }
    }
    if (!field) {
      throw Error(ErrorKind::InvalidInput, where, "unknown de-identification option '" + key + "'");
    }
    if (!value.is_boolean()) {
      throw Error(ErrorKind::InvalidInput, where,
                  "de-identification option '" + key + "' must be true or false");
    }
    options.*(field->member) = value.get<bool>();
  }
  return options;
}

}  // namespace delineate::core::deid
