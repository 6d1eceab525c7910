// VolumeView under Xvfb: the CPU ray caster on llvmpipe, presets and level of detail.
#include "viewers/VolumeView.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QMouseEvent>

#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "viewers/VolumeScene.h"
#include "viewers/VtkOpenGLWidget.h"

using namespace delineate;
using namespace delineate::viewers;
using delineate::test::SyntheticCt;
using delineate::test::waitUntil;

namespace {

struct Stats {
  int lit = 0;  // pixels clearly above the background
  double cx = 0;
};

// Skips the top rows, where the view's "3D  <preset>" label is drawn.
constexpr int kLabelRows = 24;

Stats litPixels(const QImage& image, int threshold) {
  Stats s;
  double sx = 0;
  for (int y = kLabelRows; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      if (qGray(image.pixel(x, y)) > threshold) {
        sx += x;
        ++s.lit;
      }
    }
  }
  s.cx = s.lit > 0 ? sx / s.lit : -1;
  return s;
}

// Pixels that differ from the background (a vertical gradient: compared with the leftmost pixel
// of the same row).
int coveredPixels(const QImage& image) {
  int n = 0;
  for (int y = kLabelRows; y < image.height(); ++y) {
    const int background = qGray(image.pixel(0, y));
    for (int x = 0; x < image.width(); ++x) {
      n += std::abs(qGray(image.pixel(x, y)) - background) > 10 ? 1 : 0;
    }
  }
  return n;
}

int differingPixels(const QImage& a, const QImage& b) {
  int n = 0;
  for (int y = kLabelRows; y < std::min(a.height(), b.height()); ++y) {
    for (int x = 0; x < std::min(a.width(), b.width()); ++x) {
      n += std::abs(qGray(a.pixel(x, y)) - qGray(b.pixel(x, y))) > 8 ? 1 : 0;
    }
  }
  return n;
}

}  // namespace

TEST(VolumeView, RendersBoneOnThePatientsLeftAndSwitchesPresets) {
  DELINEATE_REQUIRE_GUI();
  VolumeView view;
  view.resize(300, 300);
  view.show();
  view.setVolume(SyntheticCt::make());
  ASSERT_TRUE(waitUntil([&] { return view.hasRenderedVolume(); }, 60000));
  EXPECT_TRUE(view.hasMapper());
  if (view.canvas()->isSoftwareRenderer()) {
    EXPECT_FALSE(view.usesGpuMapper()) << view.canvas()->glRendererName().toStdString();
  }
  EXPECT_EQ(view.preset(), VolumePreset::CtBone);

  // Anterior view: only the bead (1000 HU) and the marker (600 HU) are bone-dense; the bead,
  // on the patient's left, must be drawn on the screen's right.
  const QImage bone = test::grabCanvas(view.canvas());
  const Stats s = litPixels(bone, 90);
  EXPECT_GT(s.lit, 100);
  EXPECT_LT(s.lit, bone.width() * bone.height() / 8) << "soft tissue should be transparent";
  EXPECT_GT(s.cx, bone.width() * 0.55);

  // Soft tissue shows the whole body (160 x 120 mm): it covers far more of the view.
  view.setPreset(VolumePreset::CtSoftTissue);
  const QImage soft = test::grabCanvas(view.canvas());
  EXPECT_GT(coveredPixels(soft), coveredPixels(bone) * 5);
  EXPECT_GT(coveredPixels(soft), soft.width() * soft.height() / 6);
}

TEST(VolumeView, CoarseWhileDraggingFullOnRelease) {
  DELINEATE_REQUIRE_GUI();
  VolumeView view;
  view.resize(300, 300);
  view.show();
  view.setVolume(SyntheticCt::make());
  view.setPreset(VolumePreset::CtSoftTissue);
  ASSERT_TRUE(waitUntil([&] { return view.hasRenderedVolume(); }, 60000));
  const QImage full = test::grabCanvas(view.canvas());

  QWidget* c = view.canvas();
  const QPointF p(150, 150);
  QMouseEvent press(QEvent::MouseButtonPress, p, c->mapToGlobal(p), Qt::LeftButton, Qt::LeftButton,
                    Qt::NoModifier);
  QApplication::sendEvent(c, &press);
  EXPECT_TRUE(view.isInteractive());
  const QImage coarse = test::grabCanvas(view.canvas());
  EXPECT_GT(differingPixels(full, coarse), 50) << "the coarse level of detail looks the same";

  // Rotate by 90 degrees: the body is seen from the side.
  QMouseEvent move(QEvent::MouseMove, p + QPointF(225, 0), c->mapToGlobal(p + QPointF(225, 0)),
                   Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(c, &move);
  QMouseEvent release(QEvent::MouseButtonRelease, p + QPointF(225, 0),
                      c->mapToGlobal(p + QPointF(225, 0)), Qt::LeftButton, Qt::NoButton,
                      Qt::NoModifier);
  QApplication::sendEvent(c, &release);
  EXPECT_FALSE(view.isInteractive());
  const QImage rotated = test::grabCanvas(view.canvas());
  EXPECT_GT(differingPixels(full, rotated), 500);
}

TEST(VolumeView, NewVolumeShowsACoarseFrameFirstThenFullQuality) {
  DELINEATE_REQUIRE_GUI();
  VolumeView view;
  view.resize(300, 300);
  view.show();
  view.setVolume(SyntheticCt::make());
  EXPECT_TRUE(view.isInteractive()) << "the first frame of a new volume is the coarse level";
  EXPECT_FALSE(view.hasRenderedVolume());
  ASSERT_TRUE(waitUntil([&] { return view.hasShownVolume(); }, 60000));
  ASSERT_TRUE(waitUntil([&] { return view.hasRenderedVolume(); }, 60000));
  EXPECT_FALSE(view.isInteractive()) << "full quality follows by itself";
}

TEST(VolumeView, ALargeImageOnTheSoftwareMapperRendersUnshadedToSpareItsGradients) {
  DELINEATE_REQUIRE_GUI();
  VolumeView shaded;
  shaded.resize(300, 300);
  shaded.show();
  shaded.setVolume(SyntheticCt::make());
  shaded.setPreset(VolumePreset::CtSoftTissue);
  ASSERT_TRUE(waitUntil([&] { return shaded.hasRenderedVolume(); }, 60000));
  if (shaded.usesGpuMapper()) {
    GTEST_SKIP() << "the GPU mapper keeps no gradients in main memory";
  }
  EXPECT_FALSE(shaded.shadingReducedForMemory());
  const QImage withShading = test::grabCanvas(shaded.canvas());

  // The same image counted as "large": rendered, without shading.
  VolumeScene::setCpuGradientVoxelLimit(1000);
  VolumeView large;
  large.resize(300, 300);
  large.show();
  large.setVolume(SyntheticCt::make());
  large.setPreset(VolumePreset::CtSoftTissue);
  ASSERT_TRUE(waitUntil([&] { return large.hasRenderedVolume(); }, 60000));
  VolumeScene::setCpuGradientVoxelLimit(VolumeScene::kDefaultCpuGradientVoxelLimit);
  EXPECT_TRUE(large.shadingReducedForMemory());
  const QImage without = test::grabCanvas(large.canvas());
  EXPECT_GT(coveredPixels(without), without.width() * without.height() / 6) << "still drawn";
  EXPECT_GT(differingPixels(withShading, without), 200) << "but without the shading";
}
