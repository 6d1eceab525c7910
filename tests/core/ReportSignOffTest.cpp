// Signing a report: what is missing is listed, a signed report refuses edits, addenda are signed
// on their own; read first, then reveal the AI.
#include <gtest/gtest.h>

#include <algorithm>

#include "ReportTestSupport.h"
#include "core/report/MammographyDraft.h"

using namespace delineate::core;
using namespace delineate::core::report;

namespace {

std::vector<std::string> missingWhenSigning(MammographyReport& report) {
  try {
    report.sign("Dr Reader", "2026-03-04T11:00:00Z");
  } catch (const MissingFieldsError& e) {
    return e.missing();
  }
  ADD_FAILURE() << "signed";
  return {};
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

MammographyReport completeReport() {
  MammographyReport report;
  report.edit("Dr Reader", "t0", [](MammographyContent& c) {
    c.composition.set(BreastComposition::B);
    c.assessmentOverall.set(AssessmentCategory::Negative);
    c.management.set(standardManagement(AssessmentCategory::Negative));
  });
  return report;
}

}  // namespace

TEST(ReportSignOff, SigningWithMissingFieldsListsThem) {
  MammographyReport report;
  report.edit("Dr Reader", "t0", [](MammographyContent& c) {
    c.addFinding().laterality.set(mammo::Laterality::Right);  // F1 without a kind
  });
  const auto missing = missingWhenSigning(report);
  EXPECT_TRUE(contains(missing, "breast composition"));
  EXPECT_TRUE(contains(missing, "assessment category"));
  EXPECT_TRUE(contains(missing, "management"));
  EXPECT_TRUE(contains(missing, "finding F1: kind"));
  EXPECT_FALSE(report.locked());

  // An AI draft cannot be signed with its proposals unreviewed.
  MammographyReport draft =
      draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
  const auto unreviewed = missingWhenSigning(draft);
  EXPECT_TRUE(contains(unreviewed, "assessment category (AI proposal not reviewed)"));
  EXPECT_TRUE(contains(unreviewed, "finding F1: clockPosition (AI proposal not reviewed)"));
  draft.edit("Dr Reader", "t1", [](MammographyContent& c) {
    acceptAllProposals(c);
    c.composition.set(BreastComposition::C);
  });
  EXPECT_TRUE(draft.missingForSignature().empty());
  EXPECT_NO_THROW(draft.sign("Dr Reader", "t2"));
}

TEST(ReportSignOff, SignedReportRefusesEditsAndTakesSignedAddenda) {
  MammographyReport report = completeReport();
  EXPECT_THROW(report.sign("", "2026-03-04T11:00:00Z"), MissingFieldsError);  // no signer name
  const AuditEntry signed_ = report.sign("Dr Reader", "2026-03-04T11:00:00Z");
  EXPECT_EQ(signed_.action, "sign");
  ASSERT_TRUE(report.signOff().signature());
  EXPECT_EQ(report.signOff().signature()->name, "Dr Reader");
  EXPECT_EQ(report.signOff().signature()->time, "2026-03-04T11:00:00Z");

  const MammographyReport before = report;
  EXPECT_THROW(report.edit("Dr Reader", "t", [](auto& c) { c.impression.set("changed"); }),
               ReportLockedError);
  EXPECT_THROW(report.sign("Dr Other", "t"), ReportLockedError);
  EXPECT_THROW(report.setSubject({}), ReportLockedError);
  EXPECT_EQ(report, before);

  const AuditEntry a =
      report.addAddendum("Prior films compared: stable.", "Dr Other", "2026-03-05T09:00:00Z");
  EXPECT_EQ(a.action, "addendum");
  ASSERT_EQ(report.signOff().addenda().size(), 1u);
  EXPECT_EQ(report.signOff().addenda()[0].signature.name, "Dr Other");
  EXPECT_EQ(report.content(), before.content());  // the signed text is unchanged
  EXPECT_THROW(report.addAddendum("", "Dr Other", "t"), MissingFieldsError);

  MammographyReport unsigned_ = completeReport();
  EXPECT_THROW(unsigned_.addAddendum("text", "Dr Other", "t"), ReportLockedError);
}

TEST(ReportSignOff, ReadFirstKeepsTheOwnAssessmentBeforeTheAiIsRevealed) {
  MammographyReport report =
      draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
  report.enableReadFirst();
  EXPECT_FALSE(report.aiVisible());
  EXPECT_THROW(report.edit("Dr Reader", "t", [](auto&) {}), ReportLockedError);
  EXPECT_THROW(report.revealAi("Dr Reader", "t"), MissingFieldsError);  // own assessment first
  EXPECT_TRUE(contains(report.missingForSignature(), "reveal of the AI"));

  const AuditEntry own =
      report.recordOwnAssessment("Dr Reader", "2026-03-04T10:01:00Z", AssessmentCategory::Negative);
  EXPECT_EQ(own.newValue, "1");
  report.revealAi("Dr Reader", "2026-03-04T10:02:00Z");
  EXPECT_TRUE(report.aiVisible());
  EXPECT_THROW(report.recordOwnAssessment("Dr Reader", "t", AssessmentCategory::Incomplete),
               ReportLockedError);  // fixed once the AI was shown

  report.edit("Dr Reader", "2026-03-04T10:05:00Z", [](MammographyContent& c) {
    acceptAllProposals(c);  // the final assessment: the AI's recall, accepted
    c.composition.set(BreastComposition::C);
  });
  EXPECT_EQ(report.readFirst().ownAssessment, AssessmentCategory::Negative);
  EXPECT_EQ(report.readFirst().ownAssessmentTime, "2026-03-04T10:01:00Z");
  EXPECT_EQ(report.readFirst().revealTime, "2026-03-04T10:02:00Z");
  EXPECT_EQ(report.content().assessmentOverall.value(), AssessmentCategory::Incomplete);
}
