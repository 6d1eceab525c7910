// Tomosynthesis stacks in the real window: scrolling one stack scrolls the other view of the same
// breast (and not the other breast) unless the link is off; average and maximum-intensity slabs
// show the values a direct computation gives on the screen's pixels, with the depth indicator
// and the caption naming the slab; cine steps every stack.
#include <QAction>
#include <QWheelEvent>
#include <cmath>
#include <filesystem>

#include "MammoWindowFixture.h"
#include "app/gui/MammoStackCommands.h"

namespace delineate::test {

namespace {

namespace fs = std::filesystem;

// Grey of the test window (centre 2048, width 4096; DICOM's linear function) for a value.
int greyOf(double x) {
  const double c = kWindowCenter, w = kWindowWidth;
  return static_cast<int>(
      std::lround(std::clamp(((x - (c - 0.5)) / (w - 1) + 0.5), 0.0, 1.0) * 255));
}

class MammoTomoGuiTest : public MammoWindowTest {
 protected:
  void openStacks(int frames) {
    for (const char* l : {"R", "L"}) {
      for (const char* v : {"CC", "MLO"}) {
        TestMammo m;
        m.laterality = l;
        m.view = v;
        writeTestTomo(dir_ / "tomo", m, frames);
      }
    }
    ASSERT_TRUE(open({QString::fromStdString((dir_ / "tomo").string())}));
  }

  int portShowing(const QString& title) const {
    for (int i = 0; i < view()->viewportCount(); ++i) {
      if (port(i)->image() && port(i)->image()->title == title) {
        return i;
      }
    }
    return -1;
  }

  void wheel(int i, int steps) {
    viewers::MammoViewport* p = port(i);
    const QPointF at(p->width() / 2.0, p->height() / 2.0);
    QWheelEvent e(at, p->mapToGlobal(at), QPoint(), QPoint(0, 120 * steps), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(p, &e);
  }

  // Rows of viewport i (clear of the captions) holding a pixel of exactly `grey`.
  int rowsWithGrey(int i, int grey) {
    const QImage g = grab(i);
    int rows = 0;
    for (int y = 50; y < g.height() - 40; ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const QRgb p = g.pixel(x, y);
        if (qGray(p) == grey && qRed(p) == qBlue(p) && qRed(p) == qGreen(p)) {
          ++rows;
          break;
        }
      }
    }
    return rows;
  }
};

}  // namespace

TEST_F(MammoTomoGuiTest, ScrollingOneStackScrollsTheOtherViewOfTheSameBreast) {
  openStacks(9);
  const int rcc = portShowing(QStringLiteral("R CC"));
  const int rmlo = portShowing(QStringLiteral("R MLO"));
  const int lcc = portShowing(QStringLiteral("L CC"));
  ASSERT_GE(rcc, 0);
  ASSERT_GE(rmlo, 0);
  ASSERT_GE(lcc, 0);
  ASSERT_EQ(port(rcc)->frame(), 4);
  wheel(rcc, 1);
  wheel(rcc, 1);
  EXPECT_EQ(port(rcc)->frame(), 6);
  EXPECT_EQ(port(rmlo)->frame(), 6);  // the same breast follows
  EXPECT_EQ(port(lcc)->frame(), 4);   // the other breast does not
  window_->action(QStringLiteral("mammo.stacks.link"))->setChecked(false);
  wheel(rcc, -1);
  EXPECT_EQ(port(rcc)->frame(), 5);
  EXPECT_EQ(port(rmlo)->frame(), 6);
  // Cine steps every stack, wrapping after the last frame.
  mammo()->stacks()->stepCine();
  EXPECT_EQ(port(rcc)->frame(), 6);
  EXPECT_EQ(port(lcc)->frame(), 5);
  for (int k = 0; k < 3; ++k) {
    mammo()->stacks()->stepCine();
  }
  EXPECT_EQ(port(rmlo)->frame(), 1);  // 6 -> 7 -> 8 -> 0 -> 1
}

TEST_F(MammoTomoGuiTest, SlabsShowTheAverageAndTheMaximumOfTheirFrames) {
  openStacks(9);
  const int rcc = portShowing(QStringLiteral("R CC"));
  ASSERT_GE(rcc, 0);
  const int marker = greyOf(kMarker);
  // One frame: one marker square.
  const int single = rowsWithGrey(rcc, marker);
  ASSERT_GT(single, 10);
  // A maximum-intensity slab of 3 mm (frames 1 mm apart) around frame 5 of 9 takes frames 4-6:
  // the markers of all three, 30 image rows apart, so three times the rows.
  view()->state()->setSlab(core::mammo::SlabMode::Average, 3.0);
  window_->action(QStringLiteral("mammo.slab.maximum"))->trigger();
  EXPECT_EQ(view()->state()->slabMode(), core::mammo::SlabMode::Maximum);
  EXPECT_EQ(port(rcc)->slabShown(), std::make_pair(3, 5));
  EXPECT_NEAR(rowsWithGrey(rcc, marker), 3 * single, 4);
  // The average of the same frames: where the middle frame's marker is, one frame of three holds
  // the marker and two hold tissue.
  window_->action(QStringLiteral("mammo.slab.average"))->trigger();
  const int mean = greyOf(std::round((kMarker + 2.0 * kTissue) / 3.0));
  EXPECT_EQ(rowsWithGrey(rcc, marker), 0);
  EXPECT_NEAR(rowsWithGrey(rcc, mean), 3 * single, 4);
  // The depth indicator (amber) is drawn, and thicker widens the slab to 5 frames (4.5 mm).
  const QImage g = grab(rcc);
  int amber = 0;
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const QRgb p = g.pixel(x, y);
      amber += qRed(p) > 200 && qGreen(p) > 150 && qGreen(p) < 220 && qBlue(p) < 80 ? 1 : 0;
    }
  }
  EXPECT_GT(amber, 20);
  window_->action(QStringLiteral("mammo.slab.thicker"))->trigger();
  EXPECT_DOUBLE_EQ(view()->state()->slabMm(), 4.5);
  EXPECT_EQ(port(rcc)->slabShown(), std::make_pair(2, 6));
  // Back to single frames.
  window_->action(QStringLiteral("mammo.slab.off"))->trigger();
  EXPECT_EQ(port(rcc)->slabShown(), std::make_pair(4, 4));
  EXPECT_NEAR(rowsWithGrey(rcc, marker), single, 2);
}

}  // namespace delineate::test
