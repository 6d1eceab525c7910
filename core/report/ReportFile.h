#pragma once
// Any report file (JSON) by its "format": the mammography report or the measurement report.
// For the CLI's `report` command and the app's "Open report…", which take either.
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>

#include "core/report/MammographyReport.h"
#include "core/report/MeasurementReport.h"

namespace delineate::core::report {

using AnyReport = std::variant<MammographyReport, MeasurementReport>;

// Throws Error(InvalidInput, "<source>:<line>") for text that is not JSON or a "format" that is
// neither report's (naming the formats known), else the errors of the matching parser.
AnyReport parseReport(std::string_view text, const std::string& source);
AnyReport readReport(const std::filesystem::path& file);
void writeReport(const AnyReport& report, const std::filesystem::path& file);

}  // namespace delineate::core::report
