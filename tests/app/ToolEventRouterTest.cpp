// ToolEventRouter: Qt mouse events of slice views become pointer events on the slice plane, and
// only what the tool does not use reaches the view's navigation.
#include "viewers/ToolEventRouter.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QMouseEvent>
#include <QWheelEvent>
#include <vector>

#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "annotation/tools/Tool.h"
#include "viewers/SliceView.h"
#include "viewers/VtkOpenGLWidget.h"

using namespace delineate;
using namespace delineate::viewers;
using delineate::test::SyntheticCt;
using delineate::test::waitUntil;

namespace {

class RecordingTool : public annotation::Tool {
 public:
  std::string id() const override { return "tool.recording"; }
  bool pointer(const annotation::PointerEvent& e) override {
    events.push_back(e);
    return use;
  }
  std::vector<annotation::PointerEvent> events;
  bool use = true;
};

void mouse(QWidget* w, QEvent::Type type, QPointF at, Qt::MouseButton button,
           Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  QMouseEvent e(type, at, w->mapToGlobal(at), button, buttons, mods);
  QApplication::sendEvent(w, &e);
}

double distance(const core::Vec3& a, const core::Vec3& b) {
  const core::Vec3 d{a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return std::sqrt(core::dot(d, d));
}

class ToolEventRouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DELINEATE_REQUIRE_GUI();
    state_ = std::make_shared<ViewState>();
    state_->setVolume(SyntheticCt::make());
  }
  std::unique_ptr<SliceView> makeView(SliceOrientation o) {
    auto v = std::make_unique<SliceView>(o, state_);
    v->resize(300, 300);
    v->show();
    v->setToolRouter(&router_);
    EXPECT_TRUE(waitUntil([&] { return v->hasRenderedVolume(); }));
    return v;
  }
  std::shared_ptr<ViewState> state_;
  ToolEventRouter router_;
  RecordingTool tool_;
};

}  // namespace

TEST_F(ToolEventRouterTest, PointerEventsLieOnTheSlicePlaneWithItsNormal) {
  auto axial = makeView(SliceOrientation::Axial);
  auto coronal = makeView(SliceOrientation::Coronal);
  router_.setTool(&tool_);
  const core::Vec3 c = state_->cursor();
  const core::Vec3 a{20, 10, c[2]};
  mouse(axial->canvas(), QEvent::MouseButtonPress, axial->worldToCanvas(a), Qt::LeftButton,
        Qt::LeftButton, Qt::ShiftModifier);
  ASSERT_EQ(tool_.events.size(), 1u);
  const annotation::PointerEvent& p = tool_.events[0];
  EXPECT_EQ(p.action, annotation::PointerAction::Press);
  EXPECT_EQ(p.button, annotation::PointerButton::Left);
  EXPECT_TRUE(p.shift);
  EXPECT_LT(distance(p.world, a), 1.0);
  EXPECT_EQ(p.world[2], c[2]) << "on the slice plane";
  EXPECT_EQ(p.sliceNormal, (core::Vec3{0, 0, 1}));
  EXPECT_EQ(state_->cursor(), c) << "a used press must not move the cursor";
  mouse(axial->canvas(), QEvent::MouseMove, axial->worldToCanvas({25, 10, c[2]}), Qt::NoButton,
        Qt::LeftButton);
  mouse(axial->canvas(), QEvent::MouseButtonRelease, axial->worldToCanvas({25, 10, c[2]}),
        Qt::LeftButton, Qt::NoButton);
  ASSERT_EQ(tool_.events.size(), 3u);
  EXPECT_EQ(tool_.events[1].action, annotation::PointerAction::Move);
  EXPECT_EQ(tool_.events[2].action, annotation::PointerAction::Release);

  // Coronal: the plane through the cursor, normal anterior.
  const core::Vec3 b{-30, c[1], 20};
  mouse(coronal->canvas(), QEvent::MouseButtonPress, coronal->worldToCanvas(b), Qt::LeftButton,
        Qt::LeftButton);
  ASSERT_EQ(tool_.events.size(), 4u);
  EXPECT_LT(distance(tool_.events[3].world, b), 1.0);
  EXPECT_EQ(tool_.events[3].world[1], c[1]);
  EXPECT_EQ(tool_.events[3].sliceNormal, (core::Vec3{0, -1, 0}));
  mouse(coronal->canvas(), QEvent::MouseButtonRelease, coronal->worldToCanvas(b), Qt::LeftButton,
        Qt::NoButton);
}

TEST_F(ToolEventRouterTest, WhatTheToolDoesNotUseNavigates) {
  auto axial = makeView(SliceOrientation::Axial);
  router_.setTool(&tool_);
  tool_.use = false;
  const core::Vec3 c = state_->cursor();
  const core::Vec3 a{30, -20, c[2]};
  mouse(axial->canvas(), QEvent::MouseButtonPress, axial->worldToCanvas(a), Qt::LeftButton,
        Qt::LeftButton);
  mouse(axial->canvas(), QEvent::MouseButtonRelease, axial->worldToCanvas(a), Qt::LeftButton,
        Qt::NoButton);
  EXPECT_EQ(tool_.events.size(), 1u);
  EXPECT_LT(distance(state_->cursor(), a), 1.5) << "the unused click moved the cursor";

  // The wheel is never the tool's: it scrolls slices.
  tool_.use = true;
  const int slice = axial->sliceIndex();
  QWheelEvent wheel(QPointF(100, 100), axial->canvas()->mapToGlobal(QPointF(100, 100)), QPoint(),
                    QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(axial->canvas(), &wheel);
  EXPECT_EQ(axial->sliceIndex(), slice + 1);
}

TEST_F(ToolEventRouterTest, CtrlClickAsksForTheSegmentUnderTheMouseAndGateRefuses) {
  auto axial = makeView(SliceOrientation::Axial);
  router_.setTool(&tool_);
  std::vector<core::Vec3> picks;
  QObject::connect(&router_, &ToolEventRouter::pickRequested,
                   [&picks](const core::Vec3& w) { picks.push_back(w); });
  const core::Vec3 c = state_->cursor();
  const QPointF at = axial->worldToCanvas({10, 5, c[2]});
  mouse(axial->canvas(), QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton,
        Qt::ControlModifier);
  mouse(axial->canvas(), QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton,
        Qt::ControlModifier);
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_TRUE(tool_.events.empty()) << "Ctrl+click is not the tool's";
  EXPECT_LT(distance(picks[0], {10, 5, c[2]}), 1.0);

  int refused = 0;
  QObject::connect(&router_, &ToolEventRouter::editRefused, [&refused] { ++refused; });
  router_.setEditGate([](const annotation::PointerEvent&) { return false; });
  mouse(axial->canvas(), QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
  mouse(axial->canvas(), QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton);
  EXPECT_EQ(refused, 1);
  EXPECT_TRUE(tool_.events.empty());
  EXPECT_EQ(state_->cursor(), c) << "a refused edit does not navigate either";
}
