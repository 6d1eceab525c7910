// AI-assisted segmentation in the real window with the built-in engine: a click on the bead
// shows a marker and a semi-transparent proposal, Accept makes it one undo step of the active
// segment, Undo restores the previous mask; Reject leaves the label map untouched.
#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QSettings>
#include <cstdlib>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "app/gui/AiController.h"
#include "app/gui/AiDock.h"
#include "app/gui/EditSession.h"
#include "app/gui/EditingFeature.h"
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
    const auto& p = ai()->interaction().proposal();
    std::size_t n = 0;
    for (std::size_t i = 0; p && i < p->voxelCount(); ++i) {
      n += p->data()[i] != 0;
    }
    return n;
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
  struct ForgetServers {
    ~ForgetServers() { QSettings().remove(QStringLiteral("ai/servers")); }
  } forget;
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
