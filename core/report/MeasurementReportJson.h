#pragma once
// The measurement report file (JSON):
//
//   {"format": "delineate-report-measurements", "version": 1, "subject": {...},
//    "rows": [{"name": "Liver", "label": 1, "voxels": 1234, "volumeMl": 1.5, "mean": 62.1,
//              "sd": 8.2, "largestDiameterMm": 160.2, "link": {...}}],   // mean/sd optional
//    "impression": F, "recommendations": F, "signature": {...}, "addenda": [...]}
//
// F, link, subject, signature: see ReportJsonWriter.h.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/report/MeasurementReport.h"

namespace delineate::core::report {

nlohmann::json toJson(const MeasurementReport& report);
// Throws Error(InvalidInput, "<source>:<line>") naming what is wrong.
MeasurementReport parseMeasurementReport(std::string_view text, const std::string& source);
MeasurementReport readMeasurementReport(const std::filesystem::path& file);
void writeMeasurementReport(const MeasurementReport& report, const std::filesystem::path& file);

}  // namespace delineate::core::report
