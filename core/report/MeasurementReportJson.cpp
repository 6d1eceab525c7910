// Measurement report JSON: write and read (errors name the file and line).
#include "core/report/MeasurementReportJson.h"

#include "core/report/ReportJsonReader.h"
#include "core/report/ReportJsonWriter.h"

namespace delineate::core::report {

using nlohmann::json;

namespace {
constexpr const char* kFormat = "delineate-report-measurements";
}  // namespace

json toJson(const MeasurementReport& report) {
  json out = {{"format", kFormat},
              {"version", 1},
              {"subject", subjectToJson(report.subject())},
              {"rows", json::array()},
              {"impression", fieldToJson(report.notes().impression)},
              {"recommendations", fieldToJson(report.notes().recommendations)}};
  for (const MeasurementRow& row : report.rows()) {
    json r = {{"name", row.name},
              {"label", row.label},
              {"voxels", row.voxels},
              {"volumeMl", row.volumeMl},
              {"largestDiameterMm", row.largestDiameterMm},
              {"link", linkToJson(row.link)}};
    if (row.mean) {
      r["mean"] = *row.mean;
    }
    if (row.sd) {
      r["sd"] = *row.sd;
    }
    out["rows"].push_back(std::move(r));
  }
  addSignOff(out, report.signOff());
  return out;
}

MeasurementReport parseMeasurementReport(std::string_view text, const std::string& source) {
  const ReportJsonReader r(text, source);
  const json root = r.parse(kFormat, 1);
  std::vector<MeasurementRow> rows;
  const json& list = *r.member(root, "", "rows", true);
  if (!list.is_array()) {
    r.fail("/rows", "\"rows\" must be a list");
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string p = "/rows/" + std::to_string(i);
    const json& j = list[i];
    if (!j.is_object()) {
      r.fail(p, "a row must be an object");
    }
    MeasurementRow row;
    row.name = r.string(j, p, "name", true);
    row.label = std::uint16_t(r.integer(j, p, "label", 1, 65535));
    row.voxels = std::size_t(r.integer(j, p, "voxels", 0, 1LL << 50));
    row.volumeMl = *r.number(j, p, "volumeMl", true);
    row.mean = r.number(j, p, "mean", false);
    row.sd = r.number(j, p, "sd", false);
    row.largestDiameterMm = *r.number(j, p, "largestDiameterMm", true);
    if (row.volumeMl < 0 || row.largestDiameterMm < 0) {
      r.fail(p, "a volume or diameter is negative");
    }
    row.link = r.link(j, p);
    rows.push_back(std::move(row));
  }
  MeasurementNotes notes{r.field<std::string>(root, "", "impression"),
                         r.field<std::string>(root, "", "recommendations")};
  return MeasurementReport::restore(r.subject(root), std::move(rows), std::move(notes),
                                    r.signOff(root));
}

MeasurementReport readMeasurementReport(const std::filesystem::path& file) {
  return parseMeasurementReport(readReportText(file), file.string());
}

void writeMeasurementReport(const MeasurementReport& report, const std::filesystem::path& file) {
  writeReportFile(toJson(report), file);
}

}  // namespace delineate::core::report
