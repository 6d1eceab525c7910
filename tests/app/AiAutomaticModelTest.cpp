// The built-in engine's automatic demonstration model in the workstation: on the sample brain MR,
// Run without clicks proposes its four structures, and Accept puts each into a segment of its
// name as one undo step (merged by a job, as a whole-image answer on a large image is).
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <algorithm>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/AiDock.h"
#include "app/gui/ai/LabelMappingDialog.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "core/io/VolumeFileIO.h"
#include "core/model/LabelMap.h"
#include "core/sample/SampleCase.h"

using namespace delineate;

namespace {

class AiAutomaticModelTest : public test::EditingWindowTest {
 protected:
  // Opens the sample brain MR (written to the test folder) in the window.
  void openBrain() { openImage(*brain_.image, "brain.nii.gz"); }

  const core::Segment* segmentNamed(const std::string& name) const {
    const auto& s = session()->activeMap()->segments();
    const auto it =
        std::find_if(s.begin(), s.end(), [&](const core::Segment& x) { return x.name == name; });
    return it == s.end() ? nullptr : &*it;
  }

  const core::sample::SampleCase brain_ = core::sample::makeBrainMr(20261121);
};

struct ForgetRules {
  ~ForgetRules() { QSettings().remove(QStringLiteral("ai/labelRules")); }
};

}  // namespace

TEST_F(AiAutomaticModelTest, RunProposesTheSampleBrainStructuresAndAcceptNamesTheirSegments) {
  const core::sample::SampleCase& brain = brain_;
  openBrain();

  app::AiController* ai = editing()->ai();
  ASSERT_TRUE(test::waitUntil([&] { return ai->connected(); }));
  const QString model = QString::fromLatin1(annotation::LocalEngineBackend::kBrainMrModel);
  ASSERT_TRUE(ai->models().contains(model));
  ai->setModel(model);
  ai->run();
  ASSERT_TRUE(test::waitUntil([&] { return !ai->busy() && ai->hasProposal(); }, 120000));
  const auto& proposal = ai->interaction().proposal();
  ASSERT_EQ(proposal->segments().size(), 4u);
  EXPECT_EQ(countLabel(), 0u) << "a proposal is not an edit";

  // The path a whole-image answer on a large image takes (over 4 M voxels of content): the
  // merge is worked out by a job, the map untouched until its result lands.
  ai->setWorkerMergeVoxels(0);
  ASSERT_TRUE(ai->accept());
  EXPECT_EQ(countLabel(), 0u) << "nothing written on the GUI thread yet";
  EXPECT_TRUE(session()->busy()) << "the map is held while the job reads it";
  ASSERT_TRUE(waitSettled());
  EXPECT_FALSE(ai->hasProposal());
  const auto map = session()->activeMap();
  for (const std::string& name : annotation::LocalEngineBackend::brainMrLabels()) {
    EXPECT_NE(segmentNamed(name), nullptr) << name;
  }
  // White matter landed where the sample's truth has it.
  const core::Segment* white = segmentNamed("White matter");
  ASSERT_NE(white, nullptr);
  const auto* truth = brain.labels->data<std::uint16_t>();
  std::size_t both = 0, ours = 0, theirs = 0;
  for (std::size_t i = 0; i < map->voxelCount(); ++i) {
    const bool a = map->data()[i] == white->label, b = truth[i] == 1;
    both += a && b;
    ours += a;
    theirs += b;
  }
  EXPECT_GT(2.0 * double(both) / double(ours + theirs), 0.9);
  window_->action("edit.undo")->trigger();
  ASSERT_TRUE(waitSettled());
  EXPECT_EQ(countLabel(), 0u) << "Accept was one undo step";
}

TEST_F(AiAutomaticModelTest, LabelRulesSendAProposedLabelToAChosenSegmentOrSkipIt) {
  ForgetRules forget;
  openBrain();
  // The annotator's own map has a segment "WM" for the white matter.
  session()->ensureLabelMap();
  ASSERT_TRUE(session()->renameSegment(session()->activeLabel(), QStringLiteral("WM")));
  const std::uint16_t wm = session()->activeLabel();

  app::AiController* ai = editing()->ai();
  ASSERT_TRUE(test::waitUntil([&] { return ai->connected(); }));
  const QString model = QString::fromLatin1(annotation::LocalEngineBackend::kBrainMrModel);
  ai->setModel(model);
  ai->run();
  ASSERT_TRUE(test::waitUntil([&] { return !ai->busy() && ai->hasProposal(); }, 120000));
  ASSERT_TRUE(editing()->aiDock()->labelsButton()->isEnabled());

  app::LabelMappingDialog* dialog = editing()->aiDock()->editLabels();
  ASSERT_NE(dialog, nullptr);
  ASSERT_EQ(dialog->table()->rowCount(), 4);
  for (int row = 0; row < 4; ++row) {
    const QString label = dialog->table()->item(row, 0)->text();
    QComboBox* choice = dialog->choice(row);
    if (label == "White matter") {
      choice->setCurrentIndex(choice->findText(QStringLiteral("Segment \u201cWM\u201d")));
      ASSERT_GE(choice->currentIndex(), 3);
    } else if (label == "Right hippocampus") {
      choice->setCurrentIndex(2);  // Skip
    }
  }
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  EXPECT_TRUE(
      dialog->grab().save(QStringLiteral(DELINEATE_SCREENSHOT_DIR "/ai-label-mapping.png")));
  dialog->accept();
  EXPECT_EQ(ai->labelRules(model).size(), 2u) << "kept for the model";

  ASSERT_TRUE(ai->accept());
  ASSERT_TRUE(waitSettled());
  EXPECT_EQ(segmentNamed("White matter"), nullptr) << "went into WM instead";
  EXPECT_EQ(segmentNamed("Right hippocampus"), nullptr) << "skipped";
  EXPECT_NE(segmentNamed("Left hippocampus"), nullptr);
  EXPECT_NE(segmentNamed("Lateral ventricles"), nullptr);
  EXPECT_GT(countLabel(wm), 100000u);
}
