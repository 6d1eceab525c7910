// AI-assisted segmentation in the real window with the built-in engine: a click on the bead
// shows a marker and a semi-transparent proposal, Accept makes it one undo step of the active
// segment, Undo restores the previous mask; Reject leaves the label map untouched.
#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/AiDock.h"
#include "app/gui/ai/CorrectionRecorder.h"
#include "app/gui/compare/CompareController.h"
#include "app/gui/compare/CompareDock.h"
#include "app/gui/compare/CompareFeature.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/gui/shell/JobRunner.h"
#include "core/Error.h"
#include "core/jobs/ProgressSink.h"
#include "core/metrics/CorrectionRecord.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"

using namespace delineate;
using test::SyntheticCt;

namespace {

class AiGuiTest : public test::EditingWindowTest {
 protected:
  app::AiController* ai() const { return editing()->ai(); }

  // Clicks the bead's centre in the axial view with the AI click tool and waits for the result.
  void clickBead(Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    window_->views()->state()->setCursor(SyntheticCt::kBead);
    window_->action("tool.aiClick")->trigger();
    ASSERT_TRUE(test::waitUntil([&] { return ai()->connected(); }));
    click(view(0), SyntheticCt::kBead, modifiers);
    ASSERT_TRUE(test::waitUntil([&] { return !ai()->busy() && ai()->hasProposal(); }, 60000));
  }

  std::size_t proposalVoxels() const {
    return test::nonZeroVoxels(ai()->interaction().proposal().get());
  }
};

}  // namespace

TEST_F(AiGuiTest, AClickProposesTheBeadAndAcceptIsOneUndoStep) {
  const QColor before = colourAt(view(0), SyntheticCt::kBead);
  clickBead();
  EXPECT_EQ(view(0)->shownMarkers(), 1u) << "the click is marked on its slice";
  // The bead is a 7 mm ball: ~213 voxels of 1.5 x 1.5 x 3 mm.
  const std::size_t n = proposalVoxels();
  EXPECT_GT(n, 150u);
  EXPECT_LT(n, 320u);
  EXPECT_EQ(countLabel(), 0u) << "a proposal is not an edit";
  ASSERT_TRUE(waitSettled());
  const QColor shown = colourAt(view(0), SyntheticCt::kBead);
  EXPECT_GT(test::colourDistance(shown, before), 20) << "the proposal is drawn over the image";
  if (const char* dir = std::getenv("DELINEATE_TEST_SCREENSHOTS")) {
    window_->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/ai-proposal.png"));
  }
  EXPECT_TRUE(editing()->aiDock()->acceptButton()->isEnabled());
  EXPECT_FALSE(editing()->aiDock()->timingsLabel()->text().isEmpty());

  ASSERT_TRUE(ai()->accept());
  EXPECT_EQ(countLabel(session()->activeLabel()), n);
  EXPECT_FALSE(ai()->hasProposal());
  EXPECT_EQ(view(0)->shownMarkers(), 0u) << "accepted: the clicks are done";
  EXPECT_EQ(window_->action("edit.undo")->text(), QStringLiteral("&Undo Accept AI proposal"));
  window_->action("edit.undo")->trigger();
  EXPECT_EQ(countLabel(), 0u) << "undo restores the previous mask";
}

TEST_F(AiGuiTest, RejectLeavesTheLabelMapAndANegativeClickIsMarkedRed) {
  clickBead();
  click(view(0), {SyntheticCt::kBead[0] + 20, 0, 0}, Qt::ShiftModifier);
  ASSERT_TRUE(test::waitUntil([&] { return !ai()->busy(); }, 60000));
  EXPECT_EQ(ai()->interaction().clicks().size(), 2u);
  EXPECT_EQ(ai()->interaction().clicks()[1].kind, annotation::ClickKind::Negative);
  EXPECT_EQ(view(0)->shownMarkers(), 2u);
  ai()->reject();
  EXPECT_FALSE(ai()->hasProposal());
  EXPECT_EQ(countLabel(), 0u);
  EXPECT_EQ(window_->views()->labelState()->proposal(), nullptr);
}

TEST_F(AiGuiTest, AnUnreachableServerIsReportedAndTheEngineStillWorks) {
  test::ForgetServers forget;
  const int index = ai()->addServer(QStringLiteral("http://127.0.0.1:9"));
  ASSERT_TRUE(test::waitUntil([&] {
    return ai()->backends()[static_cast<std::size_t>(index)].status.contains("cannot connect");
  }));
  EXPECT_FALSE(ai()->connected());
  EXPECT_TRUE(editing()->aiDock()->statusLabel()->text().contains("127.0.0.1:9"))
      << editing()->aiDock()->statusLabel()->text().toStdString();
  ai()->setBackend(0);
  clickBead();
  EXPECT_GT(proposalVoxels(), 150u);
}

TEST_F(AiGuiTest, SavingACorrectedProposalWritesItsCorrectionRecord) {
  clickBead();
  const std::size_t proposed = proposalVoxels();
  // The built-in engine has no sign-in: the login name is the reader.
  const QByteArray oldUser = qgetenv("USER");
  qputenv("USER", "annotator-7");
  ASSERT_TRUE(ai()->accept());
  oldUser.isNull() ? qunsetenv("USER") : qputenv("USER", oldUser);
  const auto map = session()->activeMap();
  ASSERT_TRUE(editing()->corrections()->recording(*map));
  // Corrections: paint beyond the bead on the patient's left, erase a bit of its right side,
  // undo and redo the erase.
  window_->action("tool.brush")->trigger();
  editing()->tools()->setBrushRadiusMm(3);
  const double z = SyntheticCt::kBead[2];
  stroke(view(0), {{57, 0, z}, {60, 0, z}, {63, 0, z}});
  window_->action("tool.eraser")->trigger();
  stroke(view(0), {{43, 0, z}, {44, 0, z}});
  window_->action("edit.undo")->trigger();
  window_->action("edit.redo")->trigger();
  ASSERT_TRUE(waitSettled());

  const std::filesystem::path file = dir_ / "bead_seg.nii.gz";
  bool written = false;
  QObject::connect(editing()->corrections(), &app::CorrectionRecorder::written,
                   [&written] { written = true; });
  ASSERT_TRUE(editing()->files()->saveTo(QString::fromStdString(file.string())));
  ASSERT_TRUE(test::waitUntil([&] { return written; }, 60000));
  const core::CorrectionRecord record =
      core::readCorrectionRecord(dir_ / "bead_seg.correction.json");
  EXPECT_EQ(record.clicks, 1);
  EXPECT_EQ(record.strokes, 2);
  EXPECT_EQ(record.tools.at("Paint"), 1);
  EXPECT_EQ(record.tools.at("Erase"), 1);
  EXPECT_EQ(record.tools.at("Undo"), 1);
  EXPECT_EQ(record.tools.at("Redo"), 1);
  EXPECT_FALSE(record.backend.empty());
  EXPECT_EQ(record.reader, "annotator-7");
  EXPECT_FALSE(record.acceptedAt.empty());
  EXPECT_FALSE(record.savedAt.empty());
  EXPECT_EQ(record.image, "ct.nii.gz");
  EXPECT_GE(record.activeEditingSeconds, 0.0);
  ASSERT_EQ(record.labels.size(), 1u);
  const core::CorrectionLabel& l = record.labels[0];
  EXPECT_EQ(l.label, session()->activeLabel());
  EXPECT_EQ(l.proposalVoxels, proposed);
  EXPECT_EQ(l.finalVoxels, countLabel(l.label));
  EXPECT_GT(l.addedVoxels, 0u);
  EXPECT_GT(l.removedVoxels, 0u);
  EXPECT_EQ(l.finalVoxels, l.proposalVoxels + l.addedVoxels - l.removedVoxels);
  EXPECT_LT(l.dice, 1.0);
  EXPECT_GT(l.dice, 0.5);
  EXPECT_GT(l.hd95Mm, 0.0);
  std::size_t added = 0, removed = 0;
  for (const core::CorrectionSlice& s : l.slices) {
    added += s.added;
    removed += s.removed;
  }
  EXPECT_EQ(added, l.addedVoxels);
  EXPECT_EQ(removed, l.removedVoxels);
}

TEST_F(AiGuiTest, AMapDrawnByHandIsRecordedUnderTheReaderOfPreferences) {
  QSettings().setValue(QStringLiteral("preferences/readerName"), QStringLiteral("Dr Hand"));
  window_->action("tool.brush")->trigger();
  session()->ensureLabelMap();
  stroke(view(0), {{0, 0, 0}, {5, 0, 0}});
  ASSERT_TRUE(waitSettled());
  bool written = false;
  QObject::connect(editing()->corrections(), &app::CorrectionRecorder::written,
                   [&written] { written = true; });
  const std::filesystem::path file = dir_ / "manual.nii.gz";
  ASSERT_TRUE(editing()->files()->saveTo(QString::fromStdString(file.string())));
  ASSERT_TRUE(test::waitUntil([&] { return written; }, 60000));
  QSettings().remove(QStringLiteral("preferences/readerName"));
  const core::CorrectionRecord record = core::readCorrectionRecord(dir_ / "manual.correction.json");
  EXPECT_EQ(record.reader, "Dr Hand");
  EXPECT_EQ(record.tools.at("Paint"), 1);
  EXPECT_EQ(record.strokes, 1);
  EXPECT_TRUE(record.backend.empty()) << "no AI made it";
  EXPECT_TRUE(record.acceptedAt.empty());
  EXPECT_TRUE(record.labels.empty()) << "no proposal to measure";
  EXPECT_EQ(core::correctionSummary(record).rfind("reader Dr Hand", 0), 0u)
      << core::correctionSummary(record);

  // A map read from a file was made before: editing it here writes no record of its own.
  ASSERT_TRUE(waitSettled());
  editing()->files()->openLabelMap(QString::fromStdString(file.string()));
  ASSERT_TRUE(test::waitUntil([&] { return session()->document().labelMaps().size() == 2; }));
  ASSERT_TRUE(waitSettled());
  window_->action("tool.brush")->trigger();
  stroke(view(0), {{0, 10, 0}, {5, 10, 0}});
  ASSERT_TRUE(waitSettled());
  EXPECT_FALSE(editing()->corrections()->recording(*session()->activeMap()));
  bool saved = false;
  QObject::connect(editing()->files(), &app::LabelFileController::saved,
                   [&saved] { saved = true; });
  ASSERT_TRUE(editing()->files()->saveTo(QString::fromStdString((dir_ / "again.nii.gz").string())));
  ASSERT_TRUE(test::waitUntil([&] { return saved; }, 60000));
  ASSERT_TRUE(waitSettled());
  EXPECT_FALSE(std::filesystem::exists(dir_ / "again.correction.json"));
}

TEST_F(AiGuiTest, TheAcceptedProposalIsComparedWithTheCorrectedMap) {
  EXPECT_FALSE(window_->compare()->addAcceptedProposal()) << "nothing accepted yet";
  EXPECT_TRUE(window_->compare()->panel()->isVisible());
  clickBead();
  const std::size_t proposed = proposalVoxels();
  ASSERT_TRUE(ai()->accept());
  const auto corrected = session()->activeMap();
  // The annotator erases the bead's right half in its central slice.
  window_->action("tool.eraser")->trigger();
  editing()->tools()->setBrushRadiusMm(3);
  const double z = SyntheticCt::kBead[2];
  stroke(view(0), {{44, 0, z}, {46, 0, z}});
  ASSERT_TRUE(waitSettled());
  const std::size_t kept = countLabel(session()->activeLabel());
  ASSERT_LT(kept, proposed);

  bool added = false;
  QObject::connect(window_->compare(), &app::CompareFeature::acceptedProposalAdded,
                   [&added] { added = true; });
  window_->action("analysis.addAcceptedProposal")->trigger();
  ASSERT_TRUE(test::waitUntil([&] { return added; }, 60000));
  app::CompareController* compare = window_->compare()->controller();
  ASSERT_TRUE(test::waitUntil([&] { return compare->result() && !compare->busy(); }, 60000));
  EXPECT_EQ(session()->activeMap(), corrected) << "editing goes on in the corrected map";
  const app::CompareController::Result* r = compare->result();
  EXPECT_EQ(r->referenceName.toStdString(), corrected->name());
  EXPECT_EQ(r->testName.toStdString(), corrected->name() + " AI proposal");
  // Everything kept agrees; what was erased is in the proposal only.
  EXPECT_EQ(r->counts.agree, kept);
  EXPECT_EQ(r->counts.testOnly, proposed - kept);
  EXPECT_EQ(r->counts.referenceOnly, 0u);
  ASSERT_FALSE(r->evaluation.labels.empty());
  EXPECT_NEAR(r->evaluation.labels[0].metric(core::Metric::Dice),
              2.0 * kept / double(kept + proposed), 1e-9);
}

TEST_F(AiGuiTest, TheCorrectionRecordBeingWrittenShowsInTheStatusBarAndCancels) {
  // Measuring a record (Dice, HD95 per slice of every accepted label) grows with the map: the
  // recorder's job is shown in the status bar with its title and Cancel, like every long task.
  auto* progress =
      window_->findChild<app::JobProgressWidget*>(QStringLiteral("correctionRecordProgress"));
  ASSERT_NE(progress, nullptr);
  EXPECT_FALSE(progress->isVisible());
  bool cancelled = false;
  editing()->corrections()->jobs()->run<bool>(
      QStringLiteral("Writing the correction record"),
      [](core::ProgressSink& p) {
        while (!p.cancelled()) {
          p.report(0.5, "measuring");
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        throw core::CancelledError();
        return true;
      },
      [](bool) {}, [&](const QString&, bool c) { cancelled = c; });
  ASSERT_TRUE(test::waitUntil([&] { return progress->isVisible(); }, 5000));
  progress->cancelButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return cancelled; }, 5000));
  EXPECT_TRUE(test::waitUntil([&] { return !progress->isVisible(); }, 5000));
}
