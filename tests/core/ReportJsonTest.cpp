// Report files: a round trip keeps everything (provenance, the AI draft, the pre-reveal
// assessment, signature, addenda); a broken file is refused with its file and line.
#include <gtest/gtest.h>

#include <fstream>

#include "ReportTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/report/MammographyDraft.h"
#include "core/report/MammographyReportJson.h"
#include "core/report/MeasurementReportJson.h"

using namespace delineate::core;
using namespace delineate::core::report;

namespace {

MammographyReport readSignedReport() {
  MammographyReport report =
      draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
  report.setSubject({"Doe^Jane", "PID-4711", "19600101", "1.2.3", "ACC-9"});
  report.enableReadFirst();
  report.recordOwnAssessment("Dr Reader", "2026-03-04T10:01:00Z", AssessmentCategory::Negative);
  report.revealAi("Dr Reader", "2026-03-04T10:02:00Z");
  report.edit("Dr Reader", "2026-03-04T10:05:00Z", [](MammographyContent& c) {
    c.findings[0].kind.accept();
    c.findings[0].clockPosition.set(1);
    c.findings[0].massMargin.set(MassMargin::Spiculated);
    c.findings[0].link.broken = true;
    acceptAllProposals(c);
    c.composition.set(BreastComposition::D);
    c.impression.set("Spiculated mass, left breast, 1 o'clock.");
  });
  report.sign("Dr Reader", "2026-03-04T10:10:00Z");
  report.addAddendum("Biopsy scheduled.", "Dr Other", "2026-03-05T08:00:00Z");
  return report;
}

std::string errorOf(const std::string& text) {
  try {
    parseMammographyReport(text, "report.json");
  } catch (const Error& e) {
    return e.where() + ": " + e.detail();
  }
  return "no error";
}

}  // namespace

TEST(ReportJson, MammographyRoundTripKeepsEverything) {
  delineate::test::TempDir dir;
  const MammographyReport report = readSignedReport();
  writeMammographyReport(report, dir / "report.json");
  const MammographyReport back = readMammographyReport(dir / "report.json");
  EXPECT_EQ(back, report);
  EXPECT_EQ(back.content().findings[0].clockPosition.provenance(), Provenance::Edited);
  EXPECT_EQ(back.content().findings[0].kind.provenance(), Provenance::AcceptedUnchanged);
  EXPECT_TRUE(back.content().findings[0].link.broken);
  EXPECT_EQ(back.readFirst().ownAssessment, AssessmentCategory::Negative);
  EXPECT_EQ(back.signOff().addenda().size(), 1u);
  EXPECT_TRUE(back.locked());
  EXPECT_EQ(back.differencesFromAiDraft().size(), report.differencesFromAiDraft().size());
}

TEST(ReportJson, MeasurementRoundTripKeepsEverything) {
  delineate::test::TempDir dir;
  ImageGeometry g;
  g.size = {4, 4, 2};
  g.spacing = {1, 1, 2};
  LabelMap labels("labels", g, {{.label = 3, .name = "Cyst"}});
  labels.mutableData()[5] = 3;
  labels.mutableData()[6] = 3;
  NullProgress progress;
  MeasurementReport report = MeasurementReport::measure(labels, nullptr, progress);
  report.setSubject({"Doe^John", "PID-1", "19500101", "1.2.4", ""});
  report.edit("Dr Reader", "t", [](MeasurementNotes& n) {
    n.impression.set("Small cyst.");
    n.recommendations.set("None.");
  });
  report.sign("Dr Reader", "2026-03-04T10:10:00Z");
  writeMeasurementReport(report, dir / "m.json");
  EXPECT_EQ(readMeasurementReport(dir / "m.json"), report);
}

TEST(ReportJson, ErrorsNameTheFileAndLine) {
  const std::string text = toJson(readSignedReport()).dump(2);
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    const int line = 1 + int(std::count(t.begin(), t.begin() + long(at), '\n'));
    return std::pair{t.replace(at, from.size(), to), line};
  };
  {
    const auto [t, line] = with("\"value\": \"d\"", "\"value\": \"e\"");
    EXPECT_EQ(errorOf(t), "report.json:" + std::to_string(line) +
                              ": \"composition\" value \"e\" must be one of a, b, c, d");
  }
  {
    const auto [t, line] = with("\"value\": 1\n", "\"value\": 13\n");  // the clock position
    EXPECT_EQ(errorOf(t),
              "report.json:" + std::to_string(line) + ": the clock position 13 is outside 1..12")
        << t;
  }
  {
    const auto [t, line] = with("\"provenance\": \"edited\"", "\"provenance\": \"manual\"");
    EXPECT_NE(
        errorOf(t).find("report.json:" + std::to_string(line) + ": the provenance says \"manual\""),
        std::string::npos)
        << errorOf(t);
  }
  {
    const auto [t, line] = with("\"format\": \"delineate-report-mammography\",", "");
    EXPECT_EQ(errorOf(t), "report.json:1: missing \"format\"");
  }
  {
    const auto [t, line] = with("\"addenda\": [", "\"addenda\": [,");
    EXPECT_EQ(errorOf(t).rfind("report.json:" + std::to_string(line) + ": not JSON", 0), 0u)
        << errorOf(t);
  }
  EXPECT_THROW(readMammographyReport("/nonexistent/report.json"), Error);
}
