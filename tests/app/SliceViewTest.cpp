// SliceView under Xvfb: what a radiologist would see, read back from the GL framebuffer.
#include "viewers/SliceView.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QSlider>
#include <QWheelEvent>
#include <memory>

#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "viewers/VtkOpenGLWidget.h"

using namespace delineate;
using namespace delineate::viewers;
using delineate::test::SyntheticCt;
using delineate::test::waitUntil;

namespace {

constexpr double kBodyGray = (40.0 - (40 - 200)) / 400 * 255;  // 40 HU in W 400 / L 40

class SliceViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DELINEATE_REQUIRE_GUI();
    state_ = std::make_shared<ViewState>();
  }

  std::unique_ptr<SliceView> makeView(SliceOrientation o, QSize size = QSize(320, 320)) {
    auto view = std::make_unique<SliceView>(o, state_);
    view->resize(size);
    view->show();
    EXPECT_TRUE(waitUntil([&] { return view->canvas()->isValid(); }));
    return view;
  }

  QImage render(SliceView* view) {
    EXPECT_TRUE(waitUntil([&] { return view->hasRenderedVolume(); }));
    return test::grabCanvas(view->canvas());
  }

  static void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button,
                        Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = Qt::NoModifier) {
    QMouseEvent e(type, pos, w->mapToGlobal(pos), button, buttons, mods);
    QApplication::sendEvent(w, &e);
  }
  static void sendWheel(QWidget* w, QPointF pos, int delta,
                        Qt::KeyboardModifiers mods = Qt::NoModifier) {
    QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, mods,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
  }
  static void sendKey(QWidget* w, int key) {
    QKeyEvent e(QEvent::KeyPress, key, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
  }

  // Neutral (grey) pixels brighter than `threshold`: their centroid, or (-1, -1).
  static QPointF brightCentroid(const QImage& image, int threshold = 245) {
    double sx = 0, sy = 0;
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
      for (int x = 0; x < image.width(); ++x) {
        const QRgb p = image.pixel(x, y);
        if (qRed(p) > threshold && qGreen(p) > threshold && qBlue(p) > threshold) {
          sx += x + 0.5;
          sy += y + 0.5;
          ++n;
        }
      }
    }
    return n > 0 ? QPointF(sx / n, sy / n) : QPointF(-1, -1);
  }

  std::shared_ptr<ViewState> state_;
};

class SliceViewOrder : public SliceViewTest, public ::testing::WithParamInterface<bool> {};

}  // namespace

TEST_P(SliceViewOrder, AxialIsRadiological) {
  state_->setVolume(SyntheticCt::make(GetParam()));
  auto view = makeView(SliceOrientation::Axial);
  const QImage image = render(view.get());
  ASSERT_FALSE(image.isNull());
  const double z = state_->cursor()[2];

  // The bead (patient left, +x) is on the screen's right half, and nothing bright on the left.
  const QPointF bead = brightCentroid(image);
  EXPECT_GT(bead.x(), image.width() * 0.6) << "patient left must appear on screen right";
  EXPECT_NEAR(bead.y(), image.height() / 2.0, image.height() * 0.05);

  // Where the geometry says: bead white, body grey, the mirrored spot body grey, air black.
  const QPointF at = view->worldToCanvas({50, 0, z});
  EXPECT_NEAR(at.x(), bead.x(), 3);
  EXPECT_GT(test::medianGray(image, at), 240);
  EXPECT_NEAR(test::medianGray(image, view->worldToCanvas({-50, 0, z})), kBodyGray, 12);
  EXPECT_NEAR(test::medianGray(image, view->worldToCanvas({0, 40, z})), kBodyGray, 12);
  EXPECT_LT(test::medianGray(image, view->worldToCanvas({0, -75, z})), 10);  // anterior air
  // Anterior is up: the body's front edge (y = -60) lies above its back edge (y = +60).
  EXPECT_LT(view->worldToCanvas({0, -60, z}).y(), view->worldToCanvas({0, 60, z}).y());
}

TEST_P(SliceViewOrder, CoronalAndSagittalFollowTheAnatomy) {
  state_->setVolume(SyntheticCt::make(GetParam()));
  auto coronal = makeView(SliceOrientation::Coronal);
  auto sagittal = makeView(SliceOrientation::Sagittal);
  const QImage c = render(coronal.get());
  const QImage s = render(sagittal.get());
  const double y = state_->cursor()[1];
  const double x = state_->cursor()[0];

  // Coronal: the bead on screen right at mid-height; the dark region top-left (patient right,
  // superior).
  const QPointF bead = brightCentroid(c);
  EXPECT_GT(bead.x(), c.width() * 0.6);
  EXPECT_NEAR(bead.y(), c.height() / 2.0, c.height() * 0.06);
  EXPECT_LT(test::medianGray(c, coronal->worldToCanvas({-25, y, 50})), 10);
  EXPECT_NEAR(test::medianGray(c, coronal->worldToCanvas({-25, y, 0})), kBodyGray, 12);
  const QPointF dark = coronal->worldToCanvas({-25, y, 50});
  EXPECT_LT(dark.x(), c.width() / 2.0);
  EXPECT_LT(dark.y(), c.height() / 2.0);

  // Sagittal: the anterior-superior marker at screen upper left.
  const QPointF marker = brightCentroid(s);
  EXPECT_LT(marker.x(), s.width() * 0.4) << "anterior must appear on screen left";
  EXPECT_LT(marker.y(), s.height() * 0.5) << "superior must appear at the top";
  EXPECT_GT(test::medianGray(s, sagittal->worldToCanvas({x, -40, 15})), 240);
}

INSTANTIATE_TEST_SUITE_P(VoxelOrder, SliceViewOrder, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "RasStored" : "LpsStored"; });

TEST_F(SliceViewTest, WindowLevelChangesPixelsInTheExpectedDirection) {
  state_->setVolume(SyntheticCt::make());
  auto view = makeView(SliceOrientation::Axial);
  const QPointF body = view->worldToCanvas({-30, 20, state_->cursor()[2]});
  const double g0 = test::medianGray(render(view.get()), body);
  EXPECT_NEAR(g0, kBodyGray, 12);

  // Raising the level darkens tissue; lowering it brightens.
  state_->setWindowLevel({140, 400});
  const double darker = test::medianGray(test::grabCanvas(view->canvas()), body);
  state_->setWindowLevel({-60, 400});
  const double brighter = test::medianGray(test::grabCanvas(view->canvas()), body);
  EXPECT_NEAR(darker, (40.0 - (140 - 200)) / 400 * 255, 12);
  EXPECT_NEAR(brighter, (40.0 - (-60 - 200)) / 400 * 255, 12);

  // Mouse: Shift+left drag down raises the level (darker); to the right widens the window.
  state_->setWindowLevel({40, 400});
  QWidget* c = view->canvas();
  const QPointF start(100, 100);
  sendMouse(c, QEvent::MouseButtonPress, start, Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
  sendMouse(c, QEvent::MouseMove, start + QPointF(0, 80), Qt::NoButton, Qt::LeftButton,
            Qt::ShiftModifier);
  sendMouse(c, QEvent::MouseButtonRelease, start + QPointF(0, 80), Qt::LeftButton, Qt::NoButton,
            Qt::ShiftModifier);
  EXPECT_GT(state_->windowLevel().center, 100);
  EXPECT_DOUBLE_EQ(state_->windowLevel().width, 400);
  const double dragged = test::medianGray(test::grabCanvas(view->canvas()), body);
  EXPECT_LT(dragged, g0 - 30);
  // The cursor did not move (Shift+drag is not a click).
  sendMouse(c, QEvent::MouseButtonPress, start, Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
  sendMouse(c, QEvent::MouseMove, start + QPointF(100, 0), Qt::NoButton, Qt::LeftButton,
            Qt::ShiftModifier);
  sendMouse(c, QEvent::MouseButtonRelease, start, Qt::LeftButton, Qt::NoButton);
  EXPECT_GT(state_->windowLevel().width, 400);
}

TEST_F(SliceViewTest, ScrollingShowsTheDarkRegionOnlyInUpperSlices) {
  state_->setVolume(SyntheticCt::make());
  auto view = makeView(SliceOrientation::Axial);
  auto darkSpotGray = [&] {
    const QPointF p = view->worldToCanvas({-25, 0, state_->cursor()[2]});
    return test::medianGray(test::grabCanvas(view->canvas()), p);
  };
  render(view.get());
  ASSERT_EQ(view->sliceCount(), 40);
  ASSERT_EQ(view->sliceIndex(), 20);
  EXPECT_NEAR(darkSpotGray(), kBodyGray, 12);

  // Wheel up 15 notches: slice 35 at z = +46.5 mm, inside the dark region.
  QWidget* c = view->canvas();
  for (int i = 0; i < 15; ++i) {
    sendWheel(c, QPointF(50, 50), 120);
  }
  EXPECT_EQ(view->sliceIndex(), 35);
  EXPECT_NEAR(state_->cursor()[2], 46.5, 1e-6);
  EXPECT_EQ(view->slider()->value(), 35);
  EXPECT_LT(darkSpotGray(), 10);

  // PageDown: ten slices down, below the region.
  sendKey(c, Qt::Key_PageDown);
  EXPECT_EQ(view->sliceIndex(), 25);
  EXPECT_NEAR(darkSpotGray(), kBodyGray, 12);
  sendKey(c, Qt::Key_Up);
  EXPECT_EQ(view->sliceIndex(), 26);

  // The slider reaches the top slice; Home the bottom one.
  view->slider()->setValue(39);
  EXPECT_EQ(view->sliceIndex(), 39);
  EXPECT_LT(darkSpotGray(), 10);
  sendKey(c, Qt::Key_Home);
  EXPECT_EQ(view->sliceIndex(), 0);
  EXPECT_NEAR(darkSpotGray(), kBodyGray, 12);
}

TEST_F(SliceViewTest, ClickingInOneViewMovesTheOthers) {
  state_->setVolume(SyntheticCt::make());
  auto axial = makeView(SliceOrientation::Axial);
  auto coronal = makeView(SliceOrientation::Coronal);
  auto sagittal = makeView(SliceOrientation::Sagittal);
  render(axial.get());
  render(coronal.get());
  const double z = state_->cursor()[2];
  const int coronalBefore = coronal->sliceIndex();
  const int sagittalBefore = sagittal->sliceIndex();

  // Sagittal through x = 0.75 mm: where the bead would be, plain body.
  const QPointF beadInSagittal = sagittal->worldToCanvas({50, 0, 0});
  EXPECT_NEAR(test::medianGray(render(sagittal.get()), beadInSagittal), kBodyGray, 12);

  // Click on the bead in the axial view: the sagittal view moves to x = 50 and shows it.
  const QPointF bead = axial->worldToCanvas({50, 0, z});
  sendMouse(axial->canvas(), QEvent::MouseButtonPress, bead, Qt::LeftButton, Qt::LeftButton);
  sendMouse(axial->canvas(), QEvent::MouseButtonRelease, bead, Qt::LeftButton, Qt::NoButton);
  EXPECT_NEAR(state_->cursor()[0], 50, 1.0);
  EXPECT_NEAR(state_->cursor()[2], z, 1e-9) << "a click must not change the axial slice";
  EXPECT_NE(sagittal->sliceIndex(), sagittalBefore);
  EXPECT_EQ(sagittal->sliceIndex(), 97);  // (50 + 95.25) / 1.5, rounded
  EXPECT_EQ(sagittal->slider()->value(), 97);
  EXPECT_EQ(coronal->sliceIndex(), coronalBefore);
  EXPECT_GT(test::medianGray(test::grabCanvas(sagittal->canvas()), beadInSagittal), 240);

  // Drag to y = -40 (anterior): the coronal view moves there and shows the marker
  // (x = 0, z = +15) that its central slice did not contain.
  const QPointF markerInCoronal = coronal->worldToCanvas({0, -40, 15});
  EXPECT_NEAR(test::medianGray(test::grabCanvas(coronal->canvas()), markerInCoronal), kBodyGray,
              12);
  const QPointF anterior = axial->worldToCanvas({0, -40, z});
  sendMouse(axial->canvas(), QEvent::MouseButtonPress, bead, Qt::LeftButton, Qt::LeftButton);
  sendMouse(axial->canvas(), QEvent::MouseMove, anterior, Qt::NoButton, Qt::LeftButton);
  sendMouse(axial->canvas(), QEvent::MouseButtonRelease, anterior, Qt::LeftButton, Qt::NoButton);
  EXPECT_NEAR(state_->cursor()[1], -40, 1.0);
  EXPECT_NE(coronal->sliceIndex(), coronalBefore);
  EXPECT_GT(test::medianGray(test::grabCanvas(coronal->canvas()), markerInCoronal), 240);

  // The crosshair is drawn through the cursor: the horizontal line (coronal plane, green) a
  // few pixels right of the clicked point.
  const QImage a = test::grabCanvas(axial->canvas());
  const QPointF onLine = axial->worldToCanvas({20, state_->cursor()[1], z});
  int greenness = -255;
  for (int dy = -1; dy <= 1; ++dy) {
    const QRgb p = a.pixel(static_cast<int>(onLine.x()), static_cast<int>(onLine.y()) + dy);
    greenness = std::max(greenness, qGreen(p) - qRed(p));
  }
  EXPECT_GT(greenness, 25) << "expected the green coronal crosshair line";
  // ... and nothing green well away from it.
  const QRgb away = a.pixel(static_cast<int>(onLine.x()), static_cast<int>(onLine.y()) + 12);
  EXPECT_LT(qGreen(away) - qRed(away), 5);
}

TEST_F(SliceViewTest, ZoomAndPanMoveTheImage) {
  state_->setVolume(SyntheticCt::make());
  auto view = makeView(SliceOrientation::Axial);
  const QImage before = render(view.get());
  const double mm = view->viewport().mmPerPixel();
  const QPointF bead = view->worldToCanvas({50, 0, state_->cursor()[2]});

  // Ctrl+wheel zooms about the mouse: the point under it stays, the scale grows.
  sendWheel(view->canvas(), bead, 240, Qt::ControlModifier);
  EXPECT_LT(view->viewport().mmPerPixel(), mm * 0.8);
  const QPointF after = view->worldToCanvas({50, 0, state_->cursor()[2]});
  EXPECT_NEAR(after.x(), bead.x(), 1.0);
  EXPECT_NEAR(after.y(), bead.y(), 1.0);
  const QImage zoomed = test::grabCanvas(view->canvas());
  auto whiteCount = [](const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
      for (int x = 0; x < image.width(); ++x) {
        n += qGray(image.pixel(x, y)) > 245 ? 1 : 0;
      }
    }
    return n;
  };
  EXPECT_GT(whiteCount(zoomed), whiteCount(before) * 1.5);

  // Middle drag pans: the bead follows the mouse.
  const QPointF from(160, 160);
  sendMouse(view->canvas(), QEvent::MouseButtonPress, from, Qt::MiddleButton, Qt::MiddleButton);
  sendMouse(view->canvas(), QEvent::MouseMove, from + QPointF(-40, 25), Qt::NoButton,
            Qt::MiddleButton);
  sendMouse(view->canvas(), QEvent::MouseButtonRelease, from + QPointF(-40, 25), Qt::MiddleButton,
            Qt::NoButton);
  const QPointF panned = view->worldToCanvas({50, 0, state_->cursor()[2]});
  EXPECT_NEAR(panned.x(), after.x() - 40, 1.0);
  EXPECT_NEAR(panned.y(), after.y() + 25, 1.0);
  EXPECT_GT(test::medianGray(test::grabCanvas(view->canvas()), panned), 240);

  // R resets to the whole volume.
  sendKey(view->canvas(), Qt::Key_R);
  EXPECT_DOUBLE_EQ(view->viewport().mmPerPixel(), mm);
}

TEST_F(SliceViewTest, PointerSignalCarriesValueWorldAndVoxel) {
  state_->setVolume(SyntheticCt::make());
  auto view = makeView(SliceOrientation::Axial);
  render(view.get());
  PointerInfo last;
  int count = 0;
  QObject::connect(view.get(), &SliceView::pointerMoved, [&](const PointerInfo& info) {
    last = info;
    ++count;
  });
  const double z = state_->cursor()[2];
  const QPointF bead = view->worldToCanvas({50.25, 0.75, z});
  sendMouse(view->canvas(), QEvent::MouseMove, bead, Qt::NoButton, Qt::NoButton);
  ASSERT_EQ(count, 1);
  EXPECT_TRUE(last.inside);
  EXPECT_EQ(last.value, 1000);
  EXPECT_NEAR(last.world[0], 50.25, 1.0);
  EXPECT_NEAR(last.world[2], z, 1e-9);
  EXPECT_EQ(last.voxel[0], 97);
  EXPECT_EQ(last.voxel[1], 56);
  EXPECT_EQ(last.voxel[2], 20);

  sendMouse(view->canvas(), QEvent::MouseMove, QPointF(2, 2), Qt::NoButton, Qt::NoButton);
  EXPECT_FALSE(last.inside);  // outside the volume's extent in the view's corner
}

TEST_F(SliceViewTest, SurvivesANewGlContext) {
  state_->setVolume(SyntheticCt::make());
  auto view = makeView(SliceOrientation::Axial);
  render(view.get());
  // Moving the view into another top-level window destroys its GL context (like a dock that
  // floats); VTK must release its resources and draw again on the new one.
  QWidget other;
  other.resize(340, 340);
  view->setParent(&other);
  view->show();
  other.show();
  const int frames = view->canvas()->renderedFrames();
  ASSERT_TRUE(waitUntil([&] { return view->canvas()->isValid(); }));
  view->canvas()->requestRender();
  ASSERT_TRUE(waitUntil([&] { return view->canvas()->renderedFrames() > frames; }));
  const QImage image = test::grabCanvas(view->canvas());
  EXPECT_GT(test::medianGray(image, view->worldToCanvas({50, 0, state_->cursor()[2]})), 240);
  view->setParent(nullptr);
}
