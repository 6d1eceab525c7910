// An AI box in the real window on the built-in sample brain MR, as a new user would try it: the
// AI box tool dragged tight round the left hippocampus head on the axial view proposes that
// structure (Dice against the sample's truth), with the AI panel showing the prompt options.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <cstdlib>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "annotation/engine/ClickSimulator.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/AiDock.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "core/sample/SampleCase.h"
#include "viewers/MarkerState.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"

using namespace delineate;

namespace {

class AiBoxOnBrainGuiTest : public test::EditingWindowTest {
 protected:
  void openSampleBrain() { openImage(*brain_.image, "brain.nii.gz"); }
  // The sample's label of the structure named `name` (0: none).
  std::uint16_t labelNamed(const std::string& name) const {
    for (const core::Segment& s : brain_.segments) {
      if (s.name == name) {
        return s.label;
      }
    }
    return 0;
  }

  const core::sample::SampleCase brain_ = core::sample::makeBrainMr(20261121);
};

}  // namespace

TEST_F(AiBoxOnBrainGuiTest, ATightBoxRoundTheHippocampusHeadProposesIt) {
  openSampleBrain();
  const std::uint16_t label = labelNamed("Left hippocampus head");
  ASSERT_NE(label, 0);
  const annotation::BoxMask truth = annotation::maskOfLabel(*brain_.labels, label);
  const core::VoxelBox box = annotation::largestSliceBox(truth, 2);
  const core::ImageGeometry& g = brain_.image->geometry();
  const core::Vec3 lo =
      g.indexToWorld({double(box.lo[0]) - 0.5, double(box.lo[1]) - 0.5, double(box.lo[2])});
  const core::Vec3 hi =
      g.indexToWorld({double(box.hi[0]) - 0.5, double(box.hi[1]) - 0.5, double(box.lo[2])});
  const core::Vec3 centre{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]};

  app::AiController* ai = editing()->ai();
  window_->views()->state()->setCursor(centre);
  window_->action("tool.aiBox")->trigger();
  ASSERT_TRUE(test::waitUntil([&] { return ai->connected(); }));
  if (auto* dock = editing()->aiDock()->parentWidget()) {
    dock->raise();  // the AI tab in front, as a user working with it has it
  }
  stroke(view(0), {lo, centre, hi});
  ASSERT_TRUE(test::waitUntil([&] { return !ai->busy() && ai->hasProposal(); }, 60000));
  ASSERT_EQ(ai->interaction().prompts().size(), 1u);
  EXPECT_EQ(ai->interaction().prompts()[0].sliceAxis(), 2);
  // The proposal against the sample's own truth for the structure.
  const auto& proposal = ai->interaction().proposal();
  std::size_t both = 0, proposed = 0;
  for (std::size_t k = 0, at = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i, ++at) {
        const bool p = proposal->data()[at] != 0;
        proposed += p;
        both += p && truth.contains(i, j, k) && truth.at(i, j, k);
      }
    }
  }
  const double dice = 2.0 * double(both) / double(proposed + truth.count());
  EXPECT_GT(dice, 0.85) << "proposed " << proposed << ", truth " << truth.count();
  ASSERT_TRUE(waitSettled());
  if (const char* dir = std::getenv("DELINEATE_TEST_SCREENSHOTS")) {
    window_->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/annotating-ai-box.png"));
  }
}

// The box drawn on the structure's middle slice, then T on the slices where it ends (the CVPR
// 2025 challenge's box): each end is an undo step of its own, and the proposal keeps to them.
TEST_F(AiBoxOnBrainGuiTest, TheSlicesWhereTheBoxedStructureEndsBoundTheProposal) {
  openSampleBrain();
  const std::uint16_t label = labelNamed("Left hippocampus head");
  ASSERT_NE(label, 0);
  const annotation::BoxMask truth =
      annotation::maskOfLabel(*brain_.labels, label).shrunkToContent();
  const core::VoxelBox box = annotation::middleSliceBox(truth, 2);
  const core::ImageGeometry& g = brain_.image->geometry();
  const auto world = [&](double i, double j, double k) { return g.indexToWorld({i, j, k}); };
  const double ci = double(box.lo[0] + box.hi[0]) / 2, cj = double(box.lo[1] + box.hi[1]) / 2;
  const std::size_t own = box.lo[2], first = truth.box.lo[2], last = truth.box.hi[2] - 1;
  ASSERT_LT(first, own);
  ASSERT_GT(last, own);
  app::AiController* ai = editing()->ai();
  window_->views()->state()->setCursor(world(ci, cj, double(own)));
  window_->action("tool.aiBox")->trigger();
  ASSERT_TRUE(test::waitUntil([&] { return ai->connected(); }));
  // T before any box is refused, naming what to do.
  QString refused;
  QObject::connect(ai, &app::AiController::failed, [&](const QString& m) { refused = m; });
  window_->action("ai.boxEnd")->trigger();
  EXPECT_TRUE(refused.contains(QStringLiteral("Draw an AI box"))) << refused.toStdString();
  stroke(view(0), {world(double(box.lo[0]) - 0.5, double(box.lo[1]) - 0.5, double(own)),
                   world(ci, cj, double(own)),
                   world(double(box.hi[0]) - 0.5, double(box.hi[1]) - 0.5, double(own))});
  ASSERT_TRUE(test::waitUntil([&] { return !ai->busy() && ai->hasProposal(); }, 60000));
  // On the box's own slice T is refused.
  refused.clear();
  window_->action("ai.boxEnd")->trigger();
  EXPECT_TRUE(refused.contains(QStringLiteral("drawn on this slice"))) << refused.toStdString();
  const auto proposedSlices = [&] {
    const auto& p = ai->interaction().proposal();
    std::size_t lo = g.size[2], hi = 0;
    for (std::size_t at = 0; at < p->voxelCount(); ++at) {
      if (p->data()[at] != 0) {
        lo = std::min(lo, at / (g.size[0] * g.size[1]));
        hi = std::max(hi, at / (g.size[0] * g.size[1]));
      }
    }
    return std::pair{lo, hi};
  };
  // The top end, then the bottom end: two steps, each run at once.
  for (const std::size_t end : {last, first}) {
    window_->views()->state()->setCursor(world(ci, cj, double(end)));
    window_->action("ai.boxEnd")->trigger();
    ASSERT_TRUE(test::waitUntil([&] { return !ai->busy() && ai->hasProposal(); }, 60000));
    EXPECT_EQ(window_->action("edit.undo")->text(), QStringLiteral("&Undo Box end slice"));
  }
  const core::ai::Prompt& drawn = ai->interaction().prompts().at(0);
  EXPECT_EQ(drawn.spanLo, first);
  EXPECT_EQ(drawn.spanHi, last + 1);
  const auto [lo, hi] = proposedSlices();
  EXPECT_GE(lo, first);
  EXPECT_LE(hi, last);
  EXPECT_LT(lo, own);  // and not only the box's slice
  EXPECT_GT(hi, own);
  // The box's rectangle is drawn again on each end slice.
  const auto& markers = window_->views()->markerState()->markers();
  ASSERT_EQ(markers.size(), 3u);
  EXPECT_NEAR(g.worldToIndex(markers[1].world)[2], double(first), 0.01);
  EXPECT_NEAR(g.worldToIndex(markers[2].world)[2], double(last), 0.01);
  EXPECT_EQ(markers[1].outline.size(), markers[0].outline.size());
  if (const char* dir = std::getenv("DELINEATE_TEST_SCREENSHOTS")) {
    window_->views()->state()->setCursor(world(ci, cj, double(last)));
    ASSERT_TRUE(waitSettled());
    window_->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/ai-box-end-slice.png"));
  }
  // Edit > Undo takes back the bottom end only.
  window_->action("edit.undo")->trigger();
  ASSERT_TRUE(test::waitUntil([&] { return !ai->busy(); }, 60000));
  EXPECT_FALSE(ai->interaction().prompts().at(0).spanLo);
  EXPECT_EQ(ai->interaction().prompts().at(0).spanHi, last + 1);
  EXPECT_EQ(window_->action("edit.undo")->text(), QStringLiteral("&Undo Box end slice"));
}
