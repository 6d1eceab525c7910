#pragma once
// What the PS3.15 Basic Application Level Confidentiality Profile keeps on top of its defaults: the
// options a user (or a server's settings) turns on before images leave the workstation.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace delineate::core::deid {

struct DeidOptions {
  // Dates are shifted by a per-patient number of days (the same for all of a patient's files and
  // runs, derived from the re-identification map's secret); times are kept. Without it dates are
  // removed or replaced by a fixed dummy.
  bool retainLongitudinalModifiedDates = false;
  // Sex, age, size, weight, ethnic group, smoking and pregnancy status are kept; free-text patient
  // history is cleaned instead of removed.
  bool retainPatientCharacteristics = false;
  // Device serial numbers, station names, detector and device identifiers are kept.
  bool retainDeviceIdentity = false;
  // Descriptions and comments (study, series, protocol, ...) are kept with every identifier of the
  // file removed from their text, instead of being removed.
  bool cleanDescriptors = false;

  bool operator==(const DeidOptions&) const = default;

  // The DICOM CID 7050 code values of the profile and the options in use ("113100", ...).
  std::vector<std::string> methodCodes() const;
  // One short phrase per profile / option, as written into De-identification Method (0012,0063).
  std::vector<std::string> methodPhrases() const;
};

// {"retainLongitudinalModifiedDates": bool, "retainPatientCharacteristics": bool,
//  "retainDeviceIdentity": bool, "cleanDescriptors": bool}; missing keys are false.
nlohmann::json toJson(const DeidOptions& options);
// Throws Error(InvalidInput) naming `where` (a settings file, a server) for unknown keys or
// values that are not booleans: a typo must not silently de-identify less than intended.
DeidOptions deidOptionsFromJson(const nlohmann::json& json, const std::string& where);

}  // namespace delineate::core::deid
