#pragma once
// The mammography report file (JSON): everything the report holds, so that a round trip keeps it.
//
//   {"format": "delineate-report-mammography", "version": 1,
//    "subject": {...},                                  // see ReportJsonWriter.h
//    "ai": {"source": "...", "demonstration": true, "riskScore": 0.62},   // absent without AI
//    "content": <content>, "aiDraft": <content>,        // aiDraft absent without AI
//    "readFirst": {"enabled": true, "ownAssessment": "4", "ownAssessmentUser": "...",
//                  "ownAssessmentTime": "...", "revealUser": "...", "revealTime": "..."},
//    "signature": {"name": "...", "time": "..."}, "addenda": [...]}
//
//   <content>: {"composition": F, "assessment": {"right": F, "left": F, "overall": F},
//               "management": F, "impression": F,
//               "findings": [{"id": 1, "view": "CC", "aiScore": 0.81, "otherViewFinding": 2,
//                             "link": {...}, "kind": F, "description": F, "laterality": F,
//                             "clockPosition": F, "depth": F, "sizeMm": F, "massShape": F,
//                             "massMargin": F, "massDensity": F, "calcificationMorphology": F,
//                             "calcificationDistribution": F}]}
//   F: a field with provenance (ReportJsonWriter.h); keys of values as in BiRads.h.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/report/MammographyReport.h"

namespace delineate::core::report {

nlohmann::json toJson(const MammographyReport& report);
// Throws Error(InvalidInput, "<source>:<line>") naming what is wrong: not JSON, a wrong format or
// version, a missing or mistyped member, an unknown key ("unknown value ... must be one of a, b,
// c, d"), a clock position outside 1..12, duplicate finding ids, a provenance that contradicts
// the field's values.
MammographyReport parseMammographyReport(std::string_view text, const std::string& source);
MammographyReport readMammographyReport(const std::filesystem::path& file);
void writeMammographyReport(const MammographyReport& report, const std::filesystem::path& file);

}  // namespace delineate::core::report
