// A colour ultrasound cine in the window: the slice view shows its colours (the Doppler box red
// while the wall moves towards the probe, blue when it moves away), the thumbnail is in colour,
// the value under the pointer reads R, G, B and the luminance, and the frame bar plays the loop at
// the file's 25 frames a second.
#include <gtest/gtest.h>

#include <QAction>
#include <QImage>

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "app/gui/MainWindow.h"
#include "app/gui/frames/FrameBar.h"
#include "app/gui/reading/SeriesThumbnail.h"
#include "core/model/FrameSeries.h"
#include "core/sample/UltrasoundCineSample.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"
#include "viewers/VtkOpenGLWidget.h"

using namespace delineate;
using delineate::test::TempDir;
using delineate::test::waitUntil;

namespace {

struct ColourCount {
  int red = 0;
  int blue = 0;
};

// Pixels that are clearly red or clearly blue (grey images have neither).
ColourCount countColours(const QImage& image) {
  ColourCount n;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      n.red += c.red() > c.blue() + 60 && c.red() > c.green() + 60;
      n.blue += c.blue() > c.red() + 60 && c.blue() > c.green() + 60;
    }
  }
  return n;
}

}  // namespace

TEST(ColourImageViewTest, ShowsAnUltrasoundCineInColourAndPlaysItAtItsFrameRate) {
  DELINEATE_REQUIRE_GUI();
  TempDir dir;
  const auto file = dir / "cine.dcm";
  core::sample::writeUltrasoundCine(file, 7);
  app::MainWindow w(app::MainWindowOptions{.interactive = false});
  w.resize(1200, 800);
  w.show();
  int shown = 0;
  QObject::connect(&w, &app::MainWindow::volumeShown, [&] { ++shown; });
  w.openPath(QString::fromStdString(file.string()));
  ASSERT_TRUE(waitUntil([&] { return shown > 0; }, 60000));
  ASSERT_TRUE(w.volume()->hasColour());
  ASSERT_TRUE(w.volume()->info().frames);
  EXPECT_EQ(w.volume()->info().frames->count(),
            static_cast<std::size_t>(core::sample::kCineFrames));
  // The ultrasound region's calibration (0.03 cm) is the pixel spacing: rulers measure in mm.
  EXPECT_NEAR(w.volume()->geometry().spacing[0], 0.3, 1e-9);
  EXPECT_NEAR(w.volume()->geometry().spacing[1], 0.3, 1e-9);
  for (const auto& warning : w.volume()->info().warnings) {
    EXPECT_EQ(warning.find("PixelSpacing"), std::string::npos) << warning;
  }

  app::FrameBar* bar = w.frameBar();
  ASSERT_TRUE(waitUntil([&] { return bar->isVisible(); }));
  EXPECT_EQ(bar->label(), QStringLiteral("time 0 s  (1 / 20)"));
  EXPECT_NEAR(bar->framesPerSecond(), 1000.0 / core::sample::kCineFrameTimeMs, 1e-9);

  viewers::SliceView* axial = w.views()->sliceView(0);
  ASSERT_TRUE(waitUntil([&] { return axial->hasRenderedVolume(); }, 20000));
  // An ultrasound image does not say how the patient lies: no L/R/A/P letters.
  EXPECT_FALSE(w.volume()->info().orientationKnown);
  EXPECT_FALSE(axial->showsOrientationLetters());
  const ColourCount first = countColours(delineate::test::grabCanvas(axial->canvas()));
  EXPECT_GT(first.red, 50) << "frame 1: the wall moves towards the probe, the flow is red";
  EXPECT_LT(first.blue, first.red / 10);

  // Half a cycle later the flow is blue.
  for (int k = 0; k < core::sample::kCineFrames / 2; ++k) {
    w.action(QStringLiteral("view.nextFrame"))->trigger();
  }
  ASSERT_TRUE(waitUntil([&] { return axial->hasRenderedVolume(); }, 20000));
  const ColourCount half = countColours(delineate::test::grabCanvas(axial->canvas()));
  EXPECT_GT(half.blue, 50) << "frame 11: the flow is blue";
  EXPECT_LT(half.red, half.blue / 10);

  // The value under the pointer names the colour and the luminance the tools work on.
  const QPointF centre(axial->canvas()->width() / 2.0, axial->canvas()->height() / 2.0);
  const viewers::PointerInfo p = axial->probe(centre);
  ASSERT_TRUE(p.inside);
  EXPECT_TRUE(p.colour);
  EXPECT_EQ(p.valueText().rfind("RGB (", 0), 0u) << p.valueText();
  EXPECT_NE(p.valueText().find("luminance"), std::string::npos);

  // The series thumbnail is in colour too.
  const QImage thumb = app::makeSeriesThumbnail(*w.volume(), 96);
  EXPECT_GT(countColours(thumb).blue, 5);
}
