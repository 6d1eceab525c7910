// Provenance of report fields: AI-proposed until reviewed, accepted unchanged or edited after, and
// the difference from the AI draft that the report shows.
#include <gtest/gtest.h>

#include <algorithm>

#include "ReportTestSupport.h"
#include "core/report/MammographyDraft.h"

using namespace delineate::core;
using namespace delineate::core::report;

TEST(ReportProvenance, FieldProvenanceFollowsItsValues) {
  ReportField<int> manual = ReportField<int>::manual(3);
  EXPECT_EQ(manual.provenance(), Provenance::Manual);
  ReportField<int> f = ReportField<int>::proposed(2);
  EXPECT_EQ(f.provenance(), Provenance::AiProposed);
  EXPECT_EQ(f.value(), 2);
  f.accept();
  EXPECT_EQ(f.provenance(), Provenance::AcceptedUnchanged);
  f.set(3);
  EXPECT_EQ(f.provenance(), Provenance::Edited);
  EXPECT_EQ(f.aiValue(), 2);
  f.set(2);  // typing the AI's own value back is accepting it
  EXPECT_EQ(f.provenance(), Provenance::AcceptedUnchanged);
  f.clear();
  EXPECT_EQ(f.provenance(), Provenance::Edited);
}

TEST(ReportProvenance, AcceptingUnchangedAndEditingShowInTheDifferenceFromTheAiDraft) {
  MammographyReport report =
      draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
  const auto changes = report.edit("Dr Reader", "2026-03-04T10:00:00Z", [](auto& c) {
    c.findings[0].kind.accept();
    c.findings[0].clockPosition.set(1);  // the reader places it at 1 o'clock
    c.findings[0].massShape.set(MassShape::Irregular);
    c.removeFinding(2);  // the MLO mark is the same lesion: the reader keeps one finding
  });
  const MammoFinding& f = report.content().findings.at(0);
  EXPECT_EQ(f.kind.provenance(), Provenance::AcceptedUnchanged);
  EXPECT_EQ(f.clockPosition.provenance(), Provenance::Edited);
  EXPECT_EQ(f.clockPosition.aiValue(), 2);
  EXPECT_EQ(f.massShape.provenance(), Provenance::Manual);
  EXPECT_EQ(f.depth.provenance(), Provenance::AiProposed);

  // The audit of the edit: one entry per field, with old and new values.
  const auto find = [&](const std::string& field) {
    return std::find_if(changes.begin(), changes.end(),
                        [&](const AuditEntry& e) { return e.field == field; });
  };
  ASSERT_NE(find("findings/F1/kind"), changes.end());
  EXPECT_EQ(find("findings/F1/kind")->action, "review");
  ASSERT_NE(find("findings/F1/clockPosition"), changes.end());
  EXPECT_EQ(find("findings/F1/clockPosition")->action, "edit");
  EXPECT_EQ(find("findings/F1/clockPosition")->oldValue, "2");
  EXPECT_EQ(find("findings/F1/clockPosition")->newValue, "1");
  EXPECT_EQ(find("findings/F2/kind")->action, "remove");
  EXPECT_EQ(find("findings/F1/clockPosition")->user, "Dr Reader");

  // The difference from the AI draft: the edited clock, the added shape, the removed finding;
  // the kind accepted unchanged is not a difference.
  const auto diff = report.differencesFromAiDraft();
  const auto has = [&](FieldDifference::Kind kind, const std::string& path, const std::string& ai,
                       const std::string& value) {
    return std::any_of(diff.begin(), diff.end(), [&](const FieldDifference& d) {
      return d.kind == kind && d.path == path && d.aiValue == ai && d.value == value;
    });
  };
  EXPECT_TRUE(has(FieldDifference::Kind::Changed, "findings/F1/clockPosition", "2", "1"));
  EXPECT_TRUE(has(FieldDifference::Kind::Added, "findings/F1/massShape", "", "irregular"));
  EXPECT_TRUE(has(FieldDifference::Kind::Removed, "findings/F2/kind", "mass", ""));
  EXPECT_FALSE(std::any_of(diff.begin(), diff.end(), [](const FieldDifference& d) {
    return d.path == "findings/F1/kind" || d.path == "findings/F1/depth";
  }));
}

TEST(ReportProvenance, AThrowingEditLeavesTheReportAsItWas) {
  MammographyReport report =
      draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
  const MammographyReport before = report;
  EXPECT_THROW(report.edit("Dr Reader", "t",
                           [](auto& c) {
                             c.composition.set(BreastComposition::C);
                             throw std::runtime_error("cancelled");
                           }),
               std::runtime_error);
  EXPECT_EQ(report, before);
}
