// The report docks' steps without Qt: undo and redo hand their audit entries on, signing names
// what is missing until nothing is and then clears the history (no undo across a signature), an
// addendum is refused before the signature and recorded after it, and a dock without a report
// says so.
#include <gtest/gtest.h>

#include "ReportTestSupport.h"
#include "core/report/MammographyDraft.h"
#include "core/report/ReportSteps.h"

namespace delineate::core::report {
namespace {

const std::string kUser = "Dr Reader";
const std::string kTime = "2026-03-04T10:00:00Z";

TEST(ReportSteps, UndoRedoSignAndAddendumRecordWhatTheyChanged) {
  std::optional<MammographyReport> report =
      draftFromFindings(test::leftStudyFindings(), test::leftStudyFacts());
  MammographyHistory history;
  std::vector<AuditEntry> recorded;
  const Record record = [&](const std::vector<AuditEntry>& e) {
    recorded.insert(recorded.end(), e.begin(), e.end());
  };
  EXPECT_FALSE(undoStep(report, history, kUser, kTime, record)) << "nothing to undo yet";
  history.change(*report, [&](MammographyReport& r) {
    return r.edit(kUser, kTime,
                  [](MammographyContent& c) { c.composition.set(BreastComposition::B); });
  });
  ASSERT_TRUE(undoStep(report, history, kUser, kTime, record));
  EXPECT_FALSE(recorded.empty());
  const std::size_t afterUndo = recorded.size();
  ASSERT_TRUE(redoStep(report, history, kUser, kTime, record));
  EXPECT_GT(recorded.size(), afterUndo);
  EXPECT_EQ(report->content().composition.value(), BreastComposition::B);

  EXPECT_NE(addendumStep(report, "late note", kUser, kTime, record), "")
      << "an addendum needs a signed report";
  const std::vector<std::string> missing = signStep(report, history, kUser, kTime, record);
  ASSERT_FALSE(missing.empty()) << "the AI's proposals are not accepted yet";
  EXPECT_FALSE(report->locked());

  history.change(*report, [&](MammographyReport& r) {
    return r.edit(kUser, kTime, [](MammographyContent& c) { acceptAllProposals(c); });
  });
  ASSERT_TRUE(signStep(report, history, kUser, kTime, record).empty());
  EXPECT_TRUE(report->locked());
  EXPECT_FALSE(history.canUndo(*report)) << "the history is gone with the signature";
  EXPECT_FALSE(undoStep(report, history, kUser, kTime, record));
  const std::size_t beforeAddendum = recorded.size();
  EXPECT_EQ(addendumStep(report, "late note", kUser, kTime, record), "");
  EXPECT_EQ(recorded.size(), beforeAddendum + 1);

  std::optional<MammographyReport> none;
  EXPECT_EQ(signStep(none, history, kUser, kTime, record),
            (std::vector<std::string>{"there is no report"}));
  EXPECT_EQ(addendumStep(none, "x", kUser, kTime, record), "there is no report");
}

}  // namespace
}  // namespace delineate::core::report
