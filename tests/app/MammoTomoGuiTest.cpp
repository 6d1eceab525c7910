// Tomosynthesis stacks in the real window: scrolling one stack scrolls the other view of the same
// breast (and not the other breast) unless the link is off; average and maximum-intensity slabs
// show the values a direct computation gives on the screen's pixels, with the depth indicator
// and the caption naming the slab; cine steps every stack.
#include <QAction>
#include <QWheelEvent>
#include <cmath>
#include <filesystem>
#include <tuple>

#include "MammoWindowFixture.h"
#include "RunCommand.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/mammo/MammoStackCommands.h"
#include "core/io/DicomHeader.h"
#include "core/report/MammoCadSr.h"

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

// Current over prior (8-up): scrolling the current R CC stack scrolls the prior's R CC stack to
// the same relative depth (the prior has 5 frames, the current 9).
TEST_F(MammoTomoGuiTest, ThePriorsStackFollowsAtTheSameDepth) {
  for (const auto& [key, date, frames] :
       {std::tuple{"current", "20260502", 9}, std::tuple{"prior", "20240502", 5}}) {
    for (const char* v : {"CC", "MLO"}) {
      TestMammo m;
      m.laterality = "R";
      m.view = v;
      m.studyKey = key;
      m.studyDate = date;
      writeTestTomo(dir_ / "tomo" / key, m, frames);
    }
  }
  ASSERT_TRUE(
      open({QString::fromStdString((dir_ / "tomo").string())}, QStringLiteral("mammo-8up")));
  int current = -1, prior = -1;
  for (int i = 0; i < view()->viewportCount(); ++i) {
    if (port(i)->image() && port(i)->image()->title == QStringLiteral("R CC")) {
      (port(i)->image()->subtitle.contains(QStringLiteral("prior")) ? prior : current) = i;
    }
  }
  ASSERT_GE(current, 0);
  ASSERT_GE(prior, 0);
  EXPECT_EQ(port(prior)->frameCount(), 5);
  wheel(current, 1);
  wheel(current, 1);
  wheel(current, 1);
  wheel(current, 1);  // 8 of 0..8: the deepest
  EXPECT_EQ(port(current)->frame(), 8);
  EXPECT_EQ(port(prior)->frame(), 4);
  wheel(current, -4);
  EXPECT_EQ(port(current)->frame(), 7);  // one step per wheel event
  EXPECT_EQ(port(prior)->frame(), 4);    // 7/8 of 0..4 rounds to 4
}

// A CAD mark on one frame of a stack (from a CAD SR in the study) is drawn only while that frame
// is shown; stepping to it (N) takes the stack there.
TEST_F(MammoTomoGuiTest, ACadMarkOnAFrameIsShownOnThatFrameAndSteppedTo) {
  std::vector<fs::path> files;
  for (const char* l : {"R", "L"}) {
    for (const char* v : {"CC", "MLO"}) {
      TestMammo m;
      m.laterality = l;
      m.view = v;
      files.push_back(writeTestTomo(dir_ / "tomo", m, 9));
    }
  }
  core::mammo::FindingMark mark;
  mark.kind = "mass";
  mark.frame = 6;
  const double column0 = kMammoColumns - kMarkerDepth - 20;  // R: the chest wall on the right
  const double row0 = tomoMarkerRow(6);
  mark.column = column0 + 9.5, mark.row = row0 + 9.5;
  mark.x0 = column0 - 4, mark.y0 = row0 - 4, mark.x1 = column0 + 23, mark.y1 = row0 + 23;
  mark.score = 0.8;
  core::mammo::StudyFindings cad;
  cad.source = "Tomo CAD";
  cad.images.push_back({core::readDicomHeader(files[0].string()).sopInstanceUid, {mark}, {}});
  const fs::path cadFile = dir_ / "tomo" / "cad.dcm";
  core::report::writeMammographyCadSr(cad, files, cadFile);
  if (fs::exists("/usr/bin/dciodvfy")) {  // the frame is referenced as DICOM allows
    std::string out;
    runCommand("/usr/bin/dciodvfy '" + cadFile.string() + "' 2>&1", &out);
    EXPECT_EQ(out.find("\nError"), std::string::npos) << out;
  }
  ASSERT_TRUE(open({QString::fromStdString((dir_ / "tomo").string())}));
  ASSERT_TRUE(waitUntil([this] { return mammo()->findings()->findings().has_value(); }));
  ASSERT_EQ(mammo()->findings()->findings()->images[0].marks[0].frame, std::optional<int>(6));
  const int rcc = portShowing(QStringLiteral("R CC"));
  ASSERT_GE(rcc, 0);
  auto massPixels = [&] {
    const QImage g = grab(rcc);
    int n = 0;
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const QRgb p = g.pixel(x, y);
        n += qRed(p) > qGreen(p) + 60 && qRed(p) > qBlue(p) + 60 ? 1 : 0;
      }
    }
    return n;
  };
  ASSERT_EQ(port(rcc)->frame(), 4);
  EXPECT_EQ(massPixels(), 0);
  mammo()->findings()->stepMark(1);
  EXPECT_EQ(port(rcc)->frame(), 6);
  EXPECT_EQ(port(portShowing(QStringLiteral("R MLO")))->frame(), 6);  // linked
  EXPECT_GT(massPixels(), 30);
  // A slab that takes frame 6 shows it too; one that does not, hides it.
  view()->state()->setSlab(core::mammo::SlabMode::Maximum, 3.0);
  EXPECT_GT(massPixels(), 30);
  port(rcc)->setFrame(2);
  EXPECT_EQ(massPixels(), 0);
}

}  // namespace delineate::test
