// A report finding's link to its CAD mark: broken when the findings shown no longer hold the
// mark (values kept, audited), repaired when it is back, untouched once the report is signed.
#include <gtest/gtest.h>

#include "ReportTestSupport.h"
#include "core/report/CadMarkLinks.h"
#include "core/report/MammographyDraft.h"

using namespace delineate::core;
using namespace delineate::core::report;

namespace {

MammographyReport draft() {
  return draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
}

bool broken(const MammographyReport& r, int id) {
  for (const MammoFinding& f : r.content().findings) {
    if (f.id == id) {
      return f.link.broken;
    }
  }
  ADD_FAILURE() << "no finding F" << id;
  return false;
}

}  // namespace

TEST(ReportCadLinks, UnchangedFindingsChangeNothing) {
  MammographyReport r = draft();
  EXPECT_TRUE(updateMarkLinks(r, delineate::test::leftStudyFindings(), "u", "t").empty());
  EXPECT_TRUE(r == draft());
}

TEST(ReportCadLinks, AMarkGoneBreaksItsLinkAndKeepsTheValues) {
  MammographyReport r = draft();
  const MammoFinding before = r.content().findings[1];
  auto findings = delineate::test::leftStudyFindings();
  findings.images[1].marks.clear();  // the MLO mark is gone
  const auto audit = updateMarkLinks(r, findings, "reader", "2026-11-22T10:00:00Z");
  ASSERT_EQ(audit.size(), 1u);
  EXPECT_EQ(audit[0].field, "findings/" + findingName(before.id) + "/link");
  EXPECT_NE(audit[0].newValue.find("(broken)"), std::string::npos) << audit[0].newValue;
  EXPECT_FALSE(broken(r, r.content().findings[0].id));
  EXPECT_TRUE(broken(r, before.id));
  const MammoFinding& after = r.content().findings[1];
  EXPECT_EQ(after.sizeMm, before.sizeMm);
  EXPECT_EQ(after.depth, before.depth);
  EXPECT_EQ(after.clockPosition, before.clockPosition);

  // The mark is back: repaired.
  EXPECT_EQ(updateMarkLinks(r, delineate::test::leftStudyFindings(), "reader", "t2").size(), 1u);
  EXPECT_FALSE(broken(r, before.id));
}

TEST(ReportCadLinks, AnotherMarkAtTheIndexOrAnImageGoneBreaksTheLink) {
  MammographyReport r = draft();
  auto findings = delineate::test::leftStudyFindings();
  findings.images[0].marks[0].kind = "calcification";  // another mark at that place in the list
  findings.images.pop_back();                          // the MLO image is not in the findings
  EXPECT_EQ(updateMarkLinks(r, findings, "u", "t").size(), 2u);
  EXPECT_TRUE(broken(r, r.content().findings[0].id));
  EXPECT_TRUE(broken(r, r.content().findings[1].id));

  MammographyReport rescored = draft();
  auto other = delineate::test::leftStudyFindings();
  other.images[0].marks[0].score = 0.5;  // a new run scoring another mark
  updateMarkLinks(rescored, other, "u", "t");
  EXPECT_TRUE(broken(rescored, rescored.content().findings[0].id));
}

TEST(ReportCadLinks, EditedKindStillMatchesTheAiProposedMark) {
  MammographyReport r = draft();
  r.edit("u", "t", [](MammographyContent& c) { c.findings[0].kind.set(FindingKind::Asymmetry); });
  EXPECT_TRUE(updateMarkLinks(r, delineate::test::leftStudyFindings(), "u", "t").empty());
}

TEST(ReportCadLinks, ASignedReportIsLeftAsItIs) {
  MammographyReport r = draft();
  r.edit("u", "t", [](MammographyContent& c) {
    acceptAllProposals(c);
    c.composition.set(BreastComposition::B);
  });
  r.sign("Dr Reader", "2026-11-22T10:00:00Z");
  auto findings = delineate::test::leftStudyFindings();
  findings.images.clear();
  EXPECT_TRUE(updateMarkLinks(r, findings, "u", "t").empty());
  EXPECT_FALSE(broken(r, r.content().findings[0].id));
}
