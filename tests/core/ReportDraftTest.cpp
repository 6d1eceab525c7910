// The AI draft of a mammography report: findings from CAD marks with laterality, clock position,
// depth and size computed from the mark, the suggested assessment, and the demonstration notice.
#include <gtest/gtest.h>

#include "ReportTestSupport.h"
#include "core/Error.h"
#include "core/report/MammographyDraft.h"

using namespace delineate::core;
using namespace delineate::core::report;
using delineate::test::leftStudyFacts;
using delineate::test::leftStudyFindings;

TEST(ReportDraft, UpperOuterLeftMassGetsLateralityClockDepthAndSize) {
  const MammographyReport report = draftFromFindings(leftStudyFindings(), leftStudyFacts());
  const MammographyContent& c = report.content();
  ASSERT_EQ(c.findings.size(), 2u);  // the same lesion on CC and MLO stays two findings
  const MammoFinding& cc = c.findings[0];
  const MammoFinding& mlo = c.findings[1];
  EXPECT_EQ(cc.kind.value(), FindingKind::Mass);
  EXPECT_EQ(cc.laterality.value(), mammo::Laterality::Left);
  // 30 mm lateral (CC) and 17 mm superior (MLO) of the nipple in a left breast: 2 o'clock.
  EXPECT_EQ(cc.clockPosition.value(), 2);
  EXPECT_EQ(mlo.clockPosition.value(), 2);
  EXPECT_EQ(cc.otherViewFinding, mlo.id);
  EXPECT_EQ(mlo.otherViewFinding, cc.id);
  EXPECT_EQ(cc.depth.value(), Depth::Anterior);  // 0.8 of the nipple's distance from the wall
  EXPECT_EQ(mlo.depth.value(), Depth::Anterior);
  EXPECT_DOUBLE_EQ(*cc.sizeMm.value(), 10.0);  // box 100 x 80 px at 0.1 mm
  EXPECT_DOUBLE_EQ(*mlo.sizeMm.value(), 6.0);
  EXPECT_EQ(cc.link.kind, ReportLink::Kind::CadMark);
  EXPECT_EQ(cc.link.imageId, "1.2.3.1");
  EXPECT_EQ(cc.link.markIndex, 0);
  EXPECT_EQ(cc.view, mammo::ViewCode::CC);
  // Every field the AI filled is a proposal, not the reader's.
  EXPECT_EQ(cc.kind.provenance(), Provenance::AiProposed);
  EXPECT_EQ(cc.clockPosition.provenance(), Provenance::AiProposed);
  EXPECT_TRUE(cc.massShape.empty());  // descriptors are the reader's
  EXPECT_TRUE(c.composition.empty());
}

TEST(ReportDraft, SuggestsRecallFromTheRiskScoreAndSaysItIsADemonstration) {
  const MammographyReport report = draftFromFindings(leftStudyFindings(), leftStudyFacts());
  const MammographyContent& c = report.content();
  EXPECT_EQ(c.assessmentOverall.value(), AssessmentCategory::Incomplete);  // 0.62 >= 0.5
  EXPECT_EQ(c.assessmentLeft.value(), AssessmentCategory::Incomplete);
  EXPECT_TRUE(c.assessmentRight.empty());  // not imaged
  EXPECT_EQ(c.management.value(), std::string(standardManagement(AssessmentCategory::Incomplete)));
  ASSERT_TRUE(c.impression.value());
  EXPECT_EQ(c.impression.value()->rfind(kDemonstrationNotice, 0), 0u) << *c.impression.value();
  EXPECT_NE(c.impression.value()->find("0.62"), std::string::npos);
  ASSERT_TRUE(report.aiOrigin());
  EXPECT_TRUE(report.aiOrigin()->demonstration);

  mammo::StudyFindings low = leftStudyFindings(false);
  low.riskScore = 0.1;
  low.images[0].marks[0].score = 0.2;
  low.images[1].marks[0].score = 0.3;
  const MammographyReport negative = draftFromFindings(low, leftStudyFacts());
  EXPECT_EQ(negative.content().assessmentOverall.value(), AssessmentCategory::Negative);
  EXPECT_EQ(negative.content().impression.value()->find(kDemonstrationNotice), std::string::npos);
}

TEST(ReportDraft, ClockFaceFollowsTheBreastSide) {
  // Upper outer quadrant: right breast 10 o'clock, left breast 2 o'clock.
  EXPECT_EQ(clockPosition(mammo::Laterality::Right, 30, 17), 10);
  EXPECT_EQ(clockPosition(mammo::Laterality::Left, 30, 17), 2);
  // Lower inner: right breast 4-5, left breast 7-8.
  EXPECT_EQ(clockPosition(mammo::Laterality::Right, -20, -20), 5);  // 135 degrees: 4.5 rounds up
  EXPECT_EQ(clockPosition(mammo::Laterality::Left, -35, -20), 8);
  EXPECT_EQ(clockPosition(mammo::Laterality::Left, 0, 30), 12);
  EXPECT_FALSE(clockPosition(mammo::Laterality::Left, 2, 2));  // retroareolar
}

TEST(ReportDraft, OneViewOnlyGivesNoClockPositionAndOtherKindsKeepTheirLabel) {
  mammo::StudyFindings f = leftStudyFindings();
  f.images[1].marks.clear();
  f.images[0].marks.push_back({"lymph node", 1500, 1300, 1490, 1290, 1510, 1310, 0.4});
  const MammographyReport report = draftFromFindings(f, leftStudyFacts());
  ASSERT_EQ(report.content().findings.size(), 2u);
  EXPECT_TRUE(report.content().findings[0].clockPosition.empty());
  EXPECT_EQ(report.content().findings[0].otherViewFinding, 0);
  EXPECT_EQ(report.content().findings[1].kind.value(), FindingKind::Other);
  EXPECT_EQ(report.content().findings[1].description.value(), std::string("lymph node"));
}

TEST(ReportDraft, ImageWithoutSpacingIsRefusedByName) {
  auto facts = leftStudyFacts();
  facts[1].spacingMm = 0;
  try {
    draftFromFindings(leftStudyFindings(), facts);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "1.2.3.2");
  }
}
