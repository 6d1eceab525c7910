#pragma once
// The DICOM JSON model (PS3.18 F.2) as QIDO-RS answers it: an array of objects keyed by 8-digit
// uppercase hex tags, each {"vr": .., "Value": [..]}; person names as {"Alphabetic": ..};
// numbers as JSON numbers or strings. Read into the records the study browser and the CLI use,
// forgiving of what servers do differently (lowercase tags, a missing Value, IS as text) and
// refusing what is not the model, with a message saying where.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/pacs/StudyRecords.h"

namespace delineate::core::pacs {

// The first value of element `tag` ("0020000D") as text: strings as they are, numbers printed,
// a person name's Alphabetic group; empty when absent or empty.
std::string dicomJsonText(const nlohmann::json& object, std::string_view tag);
// Every value of the element as text (ModalitiesInStudy: ["CT","SR"]).
std::vector<std::string> dicomJsonTexts(const nlohmann::json& object, std::string_view tag);
// The first value as an integer; -1 when absent or not a number.
int dicomJsonNumber(const nlohmann::json& object, std::string_view tag);

// Parse a QIDO-RS answer body: an array of result objects (an empty body, as a 204 has, is no
// results). Results without their level's unique key are left out, since they cannot be
// retrieved. Throws Error(InvalidInput) naming `where` when the body is not JSON or not an array
// of objects.
std::vector<StudyRecord> studiesFromDicomJson(std::string_view body, const std::string& where);
std::vector<SeriesRecord> seriesFromDicomJson(std::string_view body, const std::string& where);
std::vector<InstanceRecord> instancesFromDicomJson(std::string_view body, const std::string& where);

}  // namespace delineate::core::pacs
