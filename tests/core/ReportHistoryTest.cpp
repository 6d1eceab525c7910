// Undo and redo of report changes: provenance and content restored exactly, accept-all undone,
// the audit entries of each step, and no undo across a signature.
#include <gtest/gtest.h>

#include <algorithm>

#include "ReportTestSupport.h"
#include "core/report/MammographyDraft.h"
#include "core/report/ReportHistory.h"

using namespace delineate::core;
using namespace delineate::core::report;

namespace {

const std::string kUser = "Dr Reader";
const std::string kTime = "2026-03-04T10:00:00Z";

MammographyReport historyDraft() {
  return draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
}

const AuditEntry* entryFor(const std::vector<AuditEntry>& entries, const std::string& field) {
  const auto it = std::find_if(entries.begin(), entries.end(),
                               [&](const AuditEntry& e) { return e.field == field; });
  return it == entries.end() ? nullptr : &*it;
}

}  // namespace

TEST(ReportHistory, ProvenanceGoesBackToAiProposedOnUndoAndToEditedOnRedo) {
  MammographyReport report = historyDraft();
  MammographyHistory history;
  const int id = report.content().findings.at(0).id;
  EXPECT_EQ(report.content().findings[0].kind.provenance(), Provenance::AiProposed);
  EXPECT_FALSE(history.canUndo(report));

  history.change(report, [&](MammographyReport& r) {
    return r.edit(kUser, kTime, [](MammographyContent& c) {
      c.findings[0].kind.set(FindingKind::Calcification);
    });
  });
  const MammographyReport edited = report;
  EXPECT_EQ(report.content().findings[0].kind.provenance(), Provenance::Edited);
  ASSERT_TRUE(history.canUndo(report));

  const auto undone = history.undo(report, kUser, kTime);
  EXPECT_EQ(report, historyDraft());  // content, AI values and provenance as drafted
  EXPECT_EQ(report.content().findings[0].kind.provenance(), Provenance::AiProposed);
  EXPECT_EQ(report.content().findings[0].kind.value(), FindingKind::Mass);
  const AuditEntry* e = entryFor(undone, "findings/" + findingName(id) + "/kind");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->action, "undo-edit");
  EXPECT_EQ(e->oldValue, "calcification");
  EXPECT_EQ(e->newValue, "mass");
  EXPECT_EQ(e->user, kUser);
  EXPECT_EQ(undone.size(), 1u);
  EXPECT_FALSE(history.canUndo(report));
  ASSERT_TRUE(history.canRedo(report));

  const auto redone = history.redo(report, kUser, kTime);
  EXPECT_EQ(report, edited);
  EXPECT_EQ(report.content().findings[0].kind.provenance(), Provenance::Edited);
  ASSERT_EQ(redone.size(), 1u);
  EXPECT_EQ(redone[0].action, "redo-edit");
  EXPECT_EQ(redone[0].oldValue, "mass");
  EXPECT_EQ(redone[0].newValue, "calcification");

  // A new change after an undo drops what could be redone.
  history.undo(report, kUser, kTime);
  history.change(report, [&](MammographyReport& r) {
    return r.edit(kUser, kTime, [](MammographyContent& c) { c.impression.set("Reviewed."); });
  });
  EXPECT_FALSE(history.canRedo(report));
  EXPECT_EQ(history.undoCount(), 1u);
}

TEST(ReportHistory, AcceptAllIsUndoneAsOneStepWithAReviewEntryPerField) {
  MammographyReport report = historyDraft();
  MammographyHistory history;
  history.change(report, [&](MammographyReport& r) {
    return r.edit(kUser, kTime, [](MammographyContent& c) { acceptAllProposals(c); });
  });
  for (const FieldEntry& f : listFields(report.content())) {
    EXPECT_NE(f.provenance, Provenance::AiProposed) << f.path;
  }
  const auto undone = history.undo(report, kUser, kTime);
  EXPECT_EQ(report, historyDraft());
  const FieldListing fields = listFields(report.content());
  const int proposed =
      static_cast<int>(std::count_if(fields.begin(), fields.end(), [](const FieldEntry& f) {
        return f.provenance == Provenance::AiProposed;
      }));
  EXPECT_GT(proposed, 3);
  EXPECT_EQ(static_cast<int>(undone.size()), proposed);
  for (const AuditEntry& e : undone) {
    EXPECT_EQ(e.action, "undo-review") << e.field;
    EXPECT_NE(e.oldValue.find("(accepted-unchanged)"), std::string::npos) << e.oldValue;
    EXPECT_NE(e.newValue.find("(ai-proposed)"), std::string::npos) << e.newValue;
  }
}

TEST(ReportHistory, AFailedChangeIsNotRecordedAndAddedFindingsAreUndone) {
  MammographyReport report = historyDraft();
  MammographyHistory history;
  EXPECT_THROW(history.change(report,
                              [&](MammographyReport& r) {
                                return r.edit(kUser, kTime, [](MammographyContent&) {
                                  throw Error(ErrorKind::InvalidInput, "test", "refused");
                                });
                              }),
               Error);
  EXPECT_FALSE(history.canUndo(report));
  const std::size_t before = report.content().findings.size();
  history.change(report, [&](MammographyReport& r) {
    return r.edit(kUser, kTime,
                  [](MammographyContent& c) { c.addFinding().kind.set(FindingKind::Asymmetry); });
  });
  ASSERT_EQ(report.content().findings.size(), before + 1);
  EXPECT_EQ(report.content().findings.back().kind.provenance(), Provenance::Manual);
  const auto undone = history.undo(report, kUser, kTime);
  EXPECT_EQ(report.content().findings.size(), before);
  EXPECT_TRUE(std::any_of(undone.begin(), undone.end(),
                          [](const AuditEntry& e) { return e.action == "undo-remove"; }));
}

TEST(ReportHistory, ASignatureCannotBeUndone) {
  MammographyReport report = historyDraft();
  MammographyHistory history;
  history.change(report, [&](MammographyReport& r) {
    return r.edit(kUser, kTime, [](MammographyContent& c) {
      acceptAllProposals(c);
      c.composition.set(BreastComposition::B);
    });
  });
  ASSERT_TRUE(report.missingForSignature().empty());
  report.sign(kUser, kTime);
  history.clear();  // what the panels do after signing
  EXPECT_FALSE(history.canUndo(report));
  EXPECT_THROW(history.undo(report, kUser, kTime), ReportLockedError);
  EXPECT_TRUE(report.locked());

  // Even with changes still on the stack, undo refuses a signed report and leaves it locked.
  MammographyReport other = historyDraft();
  MammographyHistory kept;
  kept.change(other, [&](MammographyReport& r) {
    return r.edit(kUser, kTime, [](MammographyContent& c) {
      acceptAllProposals(c);
      c.composition.set(BreastComposition::C);
    });
  });
  other.sign(kUser, kTime);
  EXPECT_FALSE(kept.canUndo(other));
  EXPECT_THROW(kept.undo(other, kUser, kTime), ReportLockedError);
  EXPECT_THROW(kept.redo(other, kUser, kTime), ReportLockedError);
  EXPECT_TRUE(other.locked());
  EXPECT_EQ(other.content().composition.value(), BreastComposition::C);
}

TEST(ReportHistory, TheOwnAssessmentBeforeTheRevealIsUndoneAndTheRecordRestored) {
  MammographyReport report = historyDraft();
  report.enableReadFirst();
  MammographyHistory history;
  history.change(report, [&](MammographyReport& r) {
    return std::vector{r.recordOwnAssessment(kUser, kTime, AssessmentCategory::Suspicious)};
  });
  history.change(report, [&](MammographyReport& r) {
    return std::vector{r.recordOwnAssessment(kUser, kTime, AssessmentCategory::Benign)};
  });
  const auto undone = history.undo(report, kUser, kTime);
  EXPECT_EQ(report.readFirst().ownAssessment, AssessmentCategory::Suspicious);
  ASSERT_EQ(undone.size(), 1u);
  EXPECT_EQ(undone[0].field, "readFirst/ownAssessment");
  EXPECT_EQ(undone[0].oldValue, "2");
  EXPECT_EQ(undone[0].newValue, "4");
}

TEST(ReportHistory, MeasurementNotesAreUndoneWithTheirProvenance) {
  MeasurementReport report;
  MeasurementHistory history;
  history.change(report, [&](MeasurementReport& r) {
    return r.edit(kUser, kTime, [](MeasurementNotes& n) { n.impression.set("Stable."); });
  });
  EXPECT_EQ(report.notes().impression.value(), "Stable.");
  const auto undone = history.undo(report, kUser, kTime);
  EXPECT_TRUE(report.notes().impression.empty());
  ASSERT_NE(entryFor(undone, "impression"), nullptr);
  EXPECT_EQ(entryFor(undone, "impression")->oldValue, "Stable.");
  history.redo(report, kUser, kTime);
  EXPECT_EQ(report.notes().impression.value(), "Stable.");
  EXPECT_EQ(report.notes().impression.provenance(), Provenance::Manual);
}
