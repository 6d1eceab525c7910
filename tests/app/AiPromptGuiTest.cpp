// The AI prompt tools in the real window with the built-in engine: a box dragged on the axial
// view, a lasso drawn on the coronal view and a scribble on the sagittal view each propose the
// bead; each prompt is one step of Edit > Undo ("Undo Box prompt") and Redo puts it back; a
// negative box takes part of the proposal away; a backend that takes clicks only refuses a box
// naming the prompt kind.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <cmath>
#include <cstdlib>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "core/edit/LabelMapEdit.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"

using namespace delineate;
using test::SyntheticCt;

namespace {

class AiPromptGuiTest : public test::EditingWindowTest {
 protected:
  app::AiController* ai() const { return editing()->ai(); }

  void useTool(const char* id) {
    window_->views()->state()->setCursor(SyntheticCt::kBead);
    window_->action(QString::fromLatin1(id))->trigger();
    ASSERT_TRUE(test::waitUntil([&] { return ai()->connected(); }));
  }

  bool waitForProposal() {
    return test::waitUntil([&] { return !ai()->busy() && ai()->hasProposal(); }, 60000);
  }

  std::size_t proposalVoxels() const {
    return test::nonZeroVoxels(ai()->interaction().proposal().get());
  }

  // A closed circle of `radius` mm round the bead in the plane of the two axes given.
  static std::vector<core::Vec3> circle(int u, int v, double radius) {
    std::vector<core::Vec3> points;
    for (int s = 0; s <= 24; ++s) {
      core::Vec3 p = SyntheticCt::kBead;
      p[u] += radius * std::cos(s * 3.14159265358979 / 12);
      p[v] += radius * std::sin(s * 3.14159265358979 / 12);
      points.push_back(p);
    }
    return points;
  }
};

// The bead is a 7 mm ball: ~213 voxels of 1.5 x 1.5 x 3 mm.
constexpr std::size_t kBeadMin = 150, kBeadMax = 320;

}  // namespace

TEST_F(AiPromptGuiTest, ABoxOnTheAxialViewProposesTheBeadAsOneUndoStep) {
  useTool("tool.aiBox");
  const core::Vec3 b = SyntheticCt::kBead;
  stroke(view(0), {{b[0] - 10, b[1] - 10, b[2]}, {b[0], b[1], b[2]}, {b[0] + 10, b[1] + 10, b[2]}});
  ASSERT_TRUE(waitForProposal());
  const std::size_t n = proposalVoxels();
  EXPECT_GT(n, kBeadMin);
  EXPECT_LT(n, kBeadMax);
  ASSERT_EQ(ai()->interaction().prompts().size(), 1u);
  EXPECT_EQ(ai()->interaction().prompts()[0].sliceAxis(), 2) << "drawn on an axial slice";
  EXPECT_EQ(view(0)->shownMarkers(), 1u) << "the box stays drawn until accepted";
  EXPECT_EQ(countLabel(), 0u) << "a proposal is not an edit";
  ASSERT_TRUE(waitSettled());
  if (const char* dir = std::getenv("DELINEATE_TEST_SCREENSHOTS")) {
    window_->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/ai-box-prompt.png"));
  }

  EXPECT_EQ(window_->action("edit.undo")->text(), QStringLiteral("&Undo Box prompt"));
  window_->action("edit.undo")->trigger();
  EXPECT_TRUE(ai()->interaction().prompts().empty());
  EXPECT_FALSE(ai()->hasProposal()) << "no prompt left: no proposal";
  EXPECT_EQ(view(0)->shownMarkers(), 0u);
  window_->action("edit.redo")->trigger();
  ASSERT_TRUE(waitForProposal());
  EXPECT_EQ(proposalVoxels(), n) << "redo puts the box back and the same proposal comes";
  ASSERT_TRUE(ai()->accept());
  EXPECT_EQ(countLabel(session()->activeLabel()), n);
}

TEST_F(AiPromptGuiTest, ALassoOnTheCoronalAndAScribbleOnTheSagittalViewFindTheBead) {
  useTool("tool.aiLasso");
  stroke(view(1), circle(0, 2, 11));  // x-z plane through the bead
  ASSERT_TRUE(waitForProposal());
  EXPECT_EQ(ai()->interaction().prompts().at(0).sliceAxis(), 1) << "drawn on a coronal slice";
  EXPECT_GT(proposalVoxels(), kBeadMin);
  EXPECT_LT(proposalVoxels(), kBeadMax);
  ai()->clearClicks();
  ai()->reject();

  useTool("tool.aiScribble");
  const core::Vec3 b = SyntheticCt::kBead;
  stroke(view(2), {{b[0], b[1] - 3, b[2] - 3}, {b[0], b[1], b[2]}, {b[0], b[1] + 3, b[2] + 2}});
  ASSERT_TRUE(waitForProposal());
  EXPECT_EQ(ai()->interaction().prompts().at(0).sliceAxis(), 0) << "drawn on a sagittal slice";
  EXPECT_GT(proposalVoxels(), kBeadMin);
  EXPECT_LT(proposalVoxels(), kBeadMax);

  // A negative box over the bead's upper half (Shift) takes that part away.
  const std::size_t whole = proposalVoxels();
  useTool("tool.aiBox");
  stroke(view(0), {{b[0] - 12, b[1] - 12, b[2]}, {b[0] + 12, b[1], b[2]}}, Qt::ShiftModifier);
  ASSERT_TRUE(test::waitUntil([&] { return !ai()->busy(); }, 60000));
  ASSERT_EQ(ai()->interaction().prompts().size(), 2u);
  EXPECT_FALSE(ai()->interaction().prompts()[1].positive);
  EXPECT_LT(proposalVoxels(), whole);
  EXPECT_EQ(window_->action("edit.undo")->text(), QStringLiteral("&Undo Box prompt"));
  window_->action("edit.undo")->trigger();
  ASSERT_TRUE(test::waitUntil([&] { return !ai()->busy(); }, 60000));
  EXPECT_EQ(proposalVoxels(), whole) << "undo gives the proposal before the negative box";
  EXPECT_EQ(window_->action("edit.undo")->text(), QStringLiteral("&Undo Scribble prompt"));
}

TEST_F(AiPromptGuiTest, ABackendThatTakesClicksOnlyRefusesABoxNamingIt) {
  test::ForgetServers forget;
  const int index =
      ai()->addServer(QStringLiteral("http://127.0.0.1:9"), QStringLiteral("clara-aiaa"));
  ai()->setBackend(index);
  QStringList failed;
  QObject::connect(ai(), &app::AiController::failed, [&failed](const QString& m) { failed << m; });
  window_->views()->state()->setCursor(SyntheticCt::kBead);
  window_->action("tool.aiBox")->trigger();
  const core::Vec3 b = SyntheticCt::kBead;
  stroke(view(0), {{b[0] - 10, b[1] - 10, b[2]}, {b[0] + 10, b[1] + 10, b[2]}});
  ASSERT_EQ(failed.size(), 1);
  const QString message = failed.at(0);
  EXPECT_TRUE(message.contains(QStringLiteral("does not take box prompts")))
      << message.toStdString();
  EXPECT_TRUE(message.contains(QStringLiteral("127.0.0.1:9"))) << message.toStdString();
  EXPECT_TRUE(ai()->interaction().prompts().empty());
  EXPECT_NE(window_->action("edit.undo")->text(), QStringLiteral("&Undo Box prompt"));
}

TEST_F(AiPromptGuiTest, RefiningTheSelectedSegmentANegativeClickTakesAWrongPartAway) {
  // The segment as the user has it: the bead from a box, accepted...
  useTool("tool.aiBox");
  const core::Vec3 b = SyntheticCt::kBead;
  stroke(view(0), {{b[0] - 10, b[1] - 10, b[2]}, {b[0], b[1], b[2]}, {b[0] + 10, b[1] + 10, b[2]}});
  ASSERT_TRUE(waitForProposal());
  ASSERT_TRUE(ai()->accept());
  const std::uint16_t label = session()->activeLabel();
  const std::size_t bead = countLabel(label);
  ASSERT_GT(bead, kBeadMin);
  // ...and, painted by mistake, a block of the tissue 15 mm to its right.
  const auto map = session()->activeMap();
  const core::Vec3 blockCentre{b[0] + 15, b[1], b[2]};
  const core::Vec3 at = map->geometry().worldToIndex(blockCentre);
  {
    core::LabelMapEdit edit(*map);
    for (int dk = -1; dk <= 1; ++dk) {
      for (int dj = -2; dj <= 2; ++dj) {
        for (int di = -2; di <= 2; ++di) {
          edit.write(std::size_t(std::lround(at[0]) + di), std::size_t(std::lround(at[1]) + dj),
                     std::size_t(std::lround(at[2]) + dk), label);
        }
      }
    }
    edit.commit();
  }
  const std::size_t withBlock = countLabel(label);
  ASSERT_EQ(withBlock, bead + 75);
  // Refine the selected segment, then one negative click on the block.
  auto* refine = window_->findChild<QCheckBox*>(QStringLiteral("aiRefine"));
  ASSERT_NE(refine, nullptr);
  refine->setChecked(true);
  window_->action("tool.aiClick")->trigger();
  click(view(0), blockCentre, Qt::ShiftModifier);
  ASSERT_TRUE(waitForProposal());
  const std::size_t refined = proposalVoxels();
  EXPECT_GT(refined, kBeadMin);
  EXPECT_LT(refined, bead + 25) << "the block is gone from the proposal, the bead is kept";
  EXPECT_EQ(countLabel(label), withBlock) << "a proposal is not an edit";
  // Accepting replaces the segment with the proposal, as one undo step.
  ASSERT_TRUE(ai()->accept());
  EXPECT_EQ(countLabel(label), refined);
  EXPECT_EQ(map->at(std::size_t(std::lround(at[0])), std::size_t(std::lround(at[1])),
                    std::size_t(std::lround(at[2]))),
            0);
  window_->action("edit.undo")->trigger();
  EXPECT_EQ(countLabel(label), withBlock);
}
