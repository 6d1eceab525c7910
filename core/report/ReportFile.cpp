// Either report file, told apart by its "format" member.
#include "core/report/ReportFile.h"

#include "core/report/MammographyReportJson.h"
#include "core/report/MeasurementReportJson.h"
#include "core/report/ReportJsonReader.h"

namespace delineate::core::report {

namespace {

constexpr const char* kMammography = "delineate-report-mammography";
constexpr const char* kMeasurements = "delineate-report-measurements";

}  // namespace

AnyReport parseReport(std::string_view text, const std::string& source) {
  const ReportJsonReader reader(text, source);
  // parse() checks the format against the one it is given: ask for the mammography report first,
  // and only look at the format member when that fails.
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    reader.parse(kMammography, 1);  // throws with the line of the syntax error
  }
  const std::string format = reader.string(j, "", "format", true);
  if (format == kMammography) {
    return parseMammographyReport(text, source);
  }
  if (format == kMeasurements) {
    return parseMeasurementReport(text, source);
  }
  reader.fail("/format", "unknown report format \"" + format + "\" (this program reads \"" +
                             kMammography + "\" and \"" + kMeasurements + "\")");
}

AnyReport readReport(const std::filesystem::path& file) {
  return parseReport(readReportText(file), file.string());
}

void writeReport(const AnyReport& report, const std::filesystem::path& file) {
  if (const auto* m = std::get_if<MammographyReport>(&report)) {
    writeMammographyReport(*m, file);
  } else {
    writeMeasurementReport(std::get<MeasurementReport>(report), file);
  }
}

}  // namespace delineate::core::report
