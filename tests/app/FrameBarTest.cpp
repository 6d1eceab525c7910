// A 4-D image in the window: the frame bar names the dimension and its value, Alt+Right and the
// slider step the frames, the views and the value under the pointer follow, zoom and label maps
// stay, the frame curve plots the value over the frames at the cursor, and cine play runs at the
// series' own frame rate.
#include "app/gui/frames/FrameBar.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QImage>

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "app/gui/MainWindow.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/frames/FrameCurveChart.h"
#include "core/document/Document.h"
#include "core/io/VolumeFileIO.h"
#include "core/model/FrameSeries.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"
#include "viewers/ViewState.h"
#include "viewers/VtkOpenGLWidget.h"

using namespace delineate;
using delineate::test::TempDir;
using delineate::test::waitUntil;

namespace {

// Three frames 1.5 s apart of a 16^3 float image; frame t holds 100 t + x everywhere.
std::filesystem::path writeSeries(const std::filesystem::path& dir) {
  core::ImageGeometry g;
  g.size = {16, 16, 16};
  g.spacing = {1.5, 1.5, 2};
  const std::size_t n = g.voxelCount();
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Float32, 3 * n);
  float* p = voxels->as<float>();
  for (std::size_t t = 0; t < 3; ++t) {
    for (std::size_t i = 0; i < n; ++i) {
      p[t * n + i] = static_cast<float>(100 * t + i % 16);
    }
  }
  core::FrameAxis axis{"time", "s", {0, 1.5, 3}};
  auto series = core::FrameSeries::make(g, voxels, 3, axis, core::VolumeInfo{});
  const auto path = dir / "dce.nii.gz";
  core::writeVolumeFile(*series->frame(0), path, true, /*allFrames=*/true);
  return path;
}

}  // namespace

TEST(FrameBarTest, StepsAFourDimensionalImageKeepingViewsAndLabelMaps) {
  DELINEATE_REQUIRE_GUI();
  TempDir dir;
  const auto path = writeSeries(dir.path());
  app::MainWindow w(app::MainWindowOptions{.interactive = false});
  w.resize(1200, 800);
  w.show();
  int shown = 0;
  QObject::connect(&w, &app::MainWindow::volumeShown, [&] { ++shown; });
  w.openPath(QString::fromStdString(path.string()));
  ASSERT_TRUE(waitUntil([&] { return shown > 0; }, 60000));
  ASSERT_TRUE(w.volume()->info().frames);

  app::FrameBar* bar = w.frameBar();
  ASSERT_TRUE(waitUntil([&] { return bar->isVisible(); }));
  EXPECT_EQ(bar->label(), QStringLiteral("time 0 s  (1 / 3)"));
  EXPECT_DOUBLE_EQ(bar->framesPerSecond(), 1 / 1.5);

  viewers::SliceView* axial = w.views()->sliceView(0);
  EXPECT_TRUE(axial->showsOrientationLetters()) << "a NIfTI image says how the patient lies";
  const QPointF centre(axial->canvas()->width() / 2.0, axial->canvas()->height() / 2.0);
  const double before = axial->probe(centre).value;
  auto labels = w.editing()->session()->newLabelMap();
  ASSERT_TRUE(labels);
  const auto cursor = w.views()->state()->cursor();

  w.action(QStringLiteral("view.nextFrame"))->trigger();
  EXPECT_EQ(w.volume()->info().frameIndex, 1u);
  EXPECT_EQ(bar->label(), QStringLiteral("time 1.5 s  (2 / 3)"));
  EXPECT_EQ(w.views()->state()->volume(), w.volume()) << "the views show the new frame";
  EXPECT_DOUBLE_EQ(axial->probe(centre).value, before + 100) << "the value is the frame's";
  EXPECT_EQ(w.views()->state()->cursor(), cursor) << "the cursor stays";
  ASSERT_EQ(w.editing()->session()->document().labelMaps().size(), 1u);
  EXPECT_EQ(w.editing()->session()->document().labelMaps().front(), labels);

  // The frame curve at the cursor: three points at 0, 1.5 and 3 s, 100 apart.
  const auto points = w.frameCurve()->points();
  ASSERT_EQ(points.size(), 3u);
  EXPECT_DOUBLE_EQ(points[1].x(), 1.5);
  EXPECT_DOUBLE_EQ(points[1].y() - points[0].y(), 100);
  EXPECT_DOUBLE_EQ(points[2].y() - points[1].y(), 100);
  EXPECT_TRUE(w.frameCurve()->isVisible());

  w.action(QStringLiteral("view.previousFrame"))->trigger();
  w.action(QStringLiteral("view.previousFrame"))->trigger();  // wraps to the last frame
  EXPECT_EQ(w.volume()->info().frameIndex, 2u);
  EXPECT_EQ(bar->label(), QStringLiteral("time 3 s  (3 / 3)"));

  // Cine: Alt+P plays, the frames advance on their own, Alt+P stops.
  w.action(QStringLiteral("view.playFrames"))->trigger();
  EXPECT_TRUE(bar->playing());
  ASSERT_TRUE(waitUntil([&] { return w.volume()->info().frameIndex == 0; }, 10000));
  w.action(QStringLiteral("view.playFrames"))->trigger();
  EXPECT_FALSE(bar->playing());

  // A 3-D image hides the bar again.
  const auto flat = dir / "flat.nii.gz";
  auto g = w.volume()->geometry();
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  core::writeVolumeFile(core::Volume(g, voxels, core::VolumeInfo{}), flat);
  const int before3d = shown;
  w.openImage(QString::fromStdString(flat.string()));
  ASSERT_TRUE(waitUntil([&] { return shown > before3d; }, 60000));
  EXPECT_FALSE(bar->isVisible());
  EXPECT_FALSE(w.action(QStringLiteral("view.nextFrame"))->isEnabled());
  EXPECT_FALSE(w.frameCurve()->isVisible());
}
