// The mammography reading view in the real window: hanging placement, mirroring and chest-wall
// alignment read back from the viewports' pixels, MONOCHROME1 and the window against
// hand-computed grey levels, linked 1:1 zoom, pan and window/level, the ruler in millimetres,
// the linked magnifier, stepping through the reading sequence, and what a missing, duplicate or
// broken image makes the layout say.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QSettings>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

#include "GuiTestSupport.h"
#include "MammoTestStudy.h"
#include "MammoWindowFixture.h"
#include "TempDir.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/mammo/MammoReportPanel.h"
#include "app/server/MonaiServer.h"
#include "core/net/HttpServer.h"
#include "core/report/AuditTrail.h"
#include "core/report/MammographyReportJson.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

namespace delineate::test {

namespace {

namespace fs = std::filesystem;

// Grey of a linear window (DICOM C.11.2.1.2.1) for a stored value, as the test computes it.
int linearGrey(double x, double c, double w) {
  if (x <= c - 0.5 - (w - 1) / 2) {
    return 0;
  }
  if (x > c - 0.5 + (w - 1) / 2) {
    return 255;
  }
  return static_cast<int>(std::lround(((x - (c - 0.5)) / (w - 1) + 0.5) * 255));
}

struct Centroid {
  double x = 0, y = 0;
  int count = 0;
};

// Where the grey pixels within 2 of `level` are (the marker) in the half of the viewport away
// from its captions (`left`: the left half), which hold anti-aliased text of every grey.
Centroid brightCentroid(const QImage& image, int level, bool left) {
  Centroid c;
  const int x0 = left ? 0 : image.width() / 2, x1 = left ? image.width() / 2 : image.width();
  for (int y = 0; y < image.height(); ++y) {
    for (int x = x0; x < x1; ++x) {
      const QRgb p = image.pixel(x, y);
      if (std::abs(qGray(p) - level) <= 2 && qRed(p) == qBlue(p) && qRed(p) == qGreen(p)) {
        c.x += x;
        c.y += y;
        ++c.count;
      }
    }
  }
  if (c.count > 0) {
    c.x /= c.count;
    c.y /= c.count;
  }
  return c;
}

void mouse(QWidget* w, QEvent::Type type, QPointF at, Qt::MouseButton button,
           Qt::MouseButtons buttons) {
  QMouseEvent e(type, at, w->mapToGlobal(at), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(w, &e);
}

void keyClick(QWidget* w, int key, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  QKeyEvent press(QEvent::KeyPress, key, mods);
  QApplication::sendEvent(w, &press);
  QKeyEvent release(QEvent::KeyRelease, key, mods);
  QApplication::sendEvent(w, &release);
}

void drag(QWidget* w, QPointF from, QPointF to, Qt::MouseButton button = Qt::LeftButton) {
  mouse(w, QEvent::MouseButtonPress, from, button, button);
  for (int i = 1; i <= 5; ++i) {
    mouse(w, QEvent::MouseMove, from + (to - from) * (i / 5.0), Qt::NoButton, button);
  }
  mouse(w, QEvent::MouseButtonRelease, to, button, Qt::NoButton);
}

class MammoReadingTest : public MammoWindowTest {};

}  // namespace

TEST_F(MammoReadingTest, FourUpFacesTheBreastsAndAlignsTheChestWalls) {
  writeTestStudy(dir_ / "current", "current", "20260502");
  ASSERT_TRUE(open({QString::fromStdString((dir_ / "current").string())}));
  ASSERT_TRUE(mammo()->active());
  ASSERT_EQ(view()->viewportCount(), 4);
  const char* titles[] = {"R CC", "L CC", "R MLO", "L MLO"};
  const int tissue = linearGrey(kTissue, kWindowCenter, kWindowWidth);
  const int marker = linearGrey(kMarker, kWindowCenter, kWindowWidth);
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(titles[i]);
    ASSERT_TRUE(port(i)->image());
    EXPECT_EQ(port(i)->image()->title, QString::fromLatin1(titles[i]));
    const QImage g = grab(i);
    const bool right = i % 2 == 0;  // right breasts in the left column, chest wall on the right
    const int w = g.width(), h = g.height();
    const int wallX = right ? w - 3 : 2;
    const int otherX = right ? 2 : w - 3;
    EXPECT_NEAR(qGray(g.pixel(wallX, h / 2)), tissue, 2);
    EXPECT_LT(qGray(g.pixel(otherX, h / 2)), 20);
    // The marker: 150..170 pixels deep from the wall, at the top (CC) or bottom (MLO).
    // The marker lies in the half nearer the chest wall; the captions sit on the far side.
    const Centroid c = brightCentroid(g, marker, !right);
    ASSERT_GT(c.count, 100);
    const double s = fitScale(i);
    const double depth = (kMarkerDepth + 10) * s;
    EXPECT_NEAR(c.x, right ? w - depth : depth, 3.0);
    const double top = (h - kMammoRows * s) / 2;
    EXPECT_NEAR(c.y, top + (markerRow(i < 2 ? "CC" : "MLO") + 10) * s, 3.0);
  }
  // The breasts face each other across the middle of the window.
  EXPECT_LT(port(0)->mapTo(window_.get(), QPoint(0, 0)).x(),
            port(1)->mapTo(window_.get(), QPoint(0, 0)).x());
}

TEST_F(MammoReadingTest, AnImageStoredTheOtherWayRoundIsMirroredNotFlipped) {
  writeTestStudy(dir_ / "current", "current", "20260502");
  for (const auto& f : fs::directory_iterator(dir_ / "current")) {
    if (f.path().filename().string().find("RCC") != std::string::npos) {
      fs::remove(f.path());
    }
  }
  TestMammo swapped;
  swapped.swapped = true;  // a right breast stored with its chest wall on the left
  writeTestMammo(dir_ / "current", swapped);
  ASSERT_TRUE(open({QString::fromStdString((dir_ / "current").string())}));
  ASSERT_TRUE(port(0)->image());
  EXPECT_TRUE(port(0)->transform().mirror);
  EXPECT_FALSE(port(1)->transform().mirror);
  const QImage g = grab(0);
  const int tissue = linearGrey(kTissue, kWindowCenter, kWindowWidth);
  EXPECT_NEAR(qGray(g.pixel(g.width() - 3, g.height() / 2)), tissue, 2);
  const Centroid c = brightCentroid(g, linearGrey(kMarker, kWindowCenter, kWindowWidth), false);
  const double s = fitScale(0);
  EXPECT_NEAR(c.x, g.width() - (kMarkerDepth + 10) * s, 3.0);
  EXPECT_LT(c.y, g.height() / 2.0);  // still at the top: mirrored, not rotated
}

TEST_F(MammoReadingTest, MissingDuplicateAndBrokenImagesAreNamedAndTheRestIsShown) {
  const fs::path folder = dir_ / "study";
  for (const char* v : {"CC", "MLO"}) {
    TestMammo m;
    m.view = v;
    writeTestMammo(folder, m);
  }
  TestMammo lcc;
  lcc.laterality = "L";
  writeTestMammo(folder, lcc);
  TestMammo again;
  again.extra = "b";  // a second R CC
  writeTestMammo(folder, again);
  // A broken file: an L MLO cut off in its pixel data.
  TestMammo lmlo;
  lmlo.laterality = "L";
  lmlo.view = "MLO";
  const fs::path broken = writeTestMammo(folder, lmlo);
  fs::resize_file(broken, fs::file_size(broken) / 2);

  ASSERT_TRUE(open({QString::fromStdString(folder.string())}));
  ASSERT_TRUE(port(0)->image());
  ASSERT_TRUE(port(1)->image());
  ASSERT_TRUE(port(2)->image());
  EXPECT_FALSE(port(3)->image());
  EXPECT_TRUE(port(3)->emptyText().contains(QStringLiteral("L MLO")))
      << port(3)->emptyText().toStdString();
  const QString notes = view()->notes().join(QStringLiteral("\n"));
  EXPECT_TRUE(notes.contains(QStringLiteral("2 images for R CC"))) << notes.toStdString();
  EXPECT_TRUE(notes.contains(QString::fromStdString(broken.filename().string())))
      << notes.toStdString();
}

TEST_F(MammoReadingTest, MonochromeOneWindowAndInvertGiveTheHandComputedGreys) {
  const fs::path folder = dir_ / "m1";
  for (const char* l : {"R", "L"}) {
    for (const char* v : {"CC", "MLO"}) {
      TestMammo m;
      m.laterality = l;
      m.view = v;
      m.monochrome1 = true;
      writeTestMammo(folder, m);
    }
  }
  ASSERT_TRUE(open({QString::fromStdString(folder.string())}));
  view()->zoomOneToOne();
  QApplication::processEvents();
  // Stored 4095 - 4000 = 95 at the marker; MONOCHROME1 shows 255 minus the window's grey.
  const double c = 4095 - kWindowCenter, w = kWindowWidth;
  const int markerGrey = 255 - linearGrey(4095 - kMarker, c, w);
  const int tissueGrey = 255 - linearGrey(4095 - kTissue, c, w);
  const auto& image = *port(0)->image();
  const double col = kMammoColumns - 1 - (kMarkerDepth + 10), row = markerRow("CC") + 10;
  ASSERT_EQ(image.placed.storedWall, core::mammo::ChestWall::Right);
  for (int i : {0, 2}) {
    const QPointF at =
        port(i)->widgetPoint(col + 0.5, (i == 0 ? row : markerRow("MLO") + 10) + 0.5);
    EXPECT_NEAR(port(i)->transform().scale, 1.0, 1e-12);
    const QImage g = grab(i);
    EXPECT_EQ(qGray(g.pixel(at.toPoint())), markerGrey) << i;
    const QPointF tissueAt = port(i)->widgetPoint(kMammoColumns - 40.5, 200.5);
    EXPECT_EQ(qGray(g.pixel(tissueAt.toPoint())), tissueGrey) << i;
  }
  // A linked window: every view changes the same way.
  view()->state()->setWindow(viewers::MammoWindow{2000, 1000, -1});
  view()->state()->setInverted(true);
  QApplication::processEvents();
  const int linked = linearGrey(4095 - kTissue, 2000, 1000);  // inverted twice
  for (int i = 0; i < 4; ++i) {
    const QPointF at = port(i)->widgetPoint(i % 2 == 0 ? kMammoColumns - 40.5 : 40.5, 200.5);
    EXPECT_EQ(qGray(grab(i).pixel(at.toPoint())), linked) << i;
  }
}

TEST_F(MammoReadingTest, PanZoomAndTheMagnifierAreLinkedAndTheRulerMeasuresMillimetres) {
  writeTestStudy(dir_ / "current", "current", "20260502");
  ASSERT_TRUE(open({QString::fromStdString((dir_ / "current").string())}));
  keyClick(view(), Qt::Key_1);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(port(i)->transform().scale, 1.0, 1e-12) << i;
  }
  // Pan in the R CC view: the L CC view shows the same depth and height at its centre.
  drag(port(0), QPointF(200, 200), QPointF(260, 170));
  auto centreMm = [this](int i) {
    const auto p = port(i)->transform().toImage(port(i)->width() / 2.0, port(i)->height() / 2.0,
                                                port(i)->width(), port(i)->height());
    return core::mammo::chestWallMm(port(i)->image()->placed, p[0], p[1]);
  };
  const auto r = centreMm(0), l = centreMm(1);
  EXPECT_NEAR(r[0], l[0], 1e-9);
  EXPECT_NEAR(r[1], l[1], 1e-9);
  // Dragging right in the R CC view (chest wall on the right) moves towards the chest wall.
  keyClick(view(), Qt::Key_F);
  EXPECT_FALSE(view()->state()->zoom().pixelsPerMm.has_value());

  // Ruler: 100 image pixels of 0.2 mm.
  keyClick(view(), Qt::Key_R);
  ASSERT_EQ(view()->state()->tool(), viewers::MammoTool::Ruler);
  drag(port(1), port(1)->widgetPoint(40, 200), port(1)->widgetPoint(140, 200));
  ASSERT_EQ(port(1)->measurements().size(), 1u);
  const auto v = core::mammo::measure(port(1)->measurements()[0], *port(1)->image()->pyramid,
                                      port(1)->image()->placed.spacing);
  EXPECT_NEAR(v.lengthMm, 20.0, 0.2);
  EXPECT_EQ(core::mammo::describe(port(1)->measurements()[0], v), "20.0 mm");

  // The magnifier over the L CC marker shows a loupe in every viewport.
  keyClick(view(), Qt::Key_M);
  const QPointF markerAt = port(1)->widgetPoint(kMarkerDepth + 10, markerRow("CC") + 10);
  mouse(port(1), QEvent::MouseMove, markerAt, Qt::NoButton, Qt::NoButton);
  ASSERT_TRUE(view()->state()->loupe().has_value());
  EXPECT_NEAR((*view()->state()->loupe())[0], (kMarkerDepth + 10) * kMammoSpacing, 0.2);
  auto loupeRing = [](const QImage& g) {
    int n = 0;
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const QRgb p = g.pixel(x, y);
        n += qRed(p) > 200 && qGreen(p) > 170 && qGreen(p) < 240 && qBlue(p) < 140;
      }
    }
    return n;
  };
  for (int i = 0; i < 4; ++i) {
    EXPECT_GT(loupeRing(grab(i)), 200) << i;
  }
  keyClick(view(), Qt::Key_Escape);
  EXPECT_FALSE(view()->state()->loupe().has_value());
  EXPECT_EQ(loupeRing(grab(0)), 0);
}

TEST_F(MammoReadingTest, PageDownStepsToTheEightUpWithThePrior) {
  writeTestStudy(dir_ / "current", "current", "20260502");
  writeTestStudy(dir_ / "prior", "prior", "20240428");
  ASSERT_TRUE(open({QString::fromStdString((dir_ / "current").string()),
                    QString::fromStdString((dir_ / "prior").string())}));
  const auto& seq = mammo()->protocols().sequence;
  ASSERT_GE(seq.size(), 2u);
  keyClick(view(), Qt::Key_PageDown);
  EXPECT_EQ(mammo()->layoutId().toStdString(), seq[1]);
  ASSERT_EQ(mammo()->layoutId(), QStringLiteral("mammo-8up"));
  ASSERT_EQ(view()->viewportCount(), 8);
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(port(i)->image()) << i;
    EXPECT_EQ(port(i)->image()->subtitle.contains(QStringLiteral("prior")), i >= 4) << i;
  }
  EXPECT_TRUE(view()->notes().isEmpty())
      << view()->notes().join(QStringLiteral("; ")).toStdString();
  keyClick(view(), Qt::Key_PageUp);
  EXPECT_EQ(mammo()->layoutId(), QStringLiteral("mammo-4up"));
}

TEST_F(MammoReadingTest, TheWheelScrollsATomosynthesisStack) {
  for (const char* l : {"R", "L"}) {
    for (const char* v : {"CC", "MLO"}) {
      TestMammo m;
      m.laterality = l;
      m.view = v;
      writeTestTomo(dir_ / "tomo", m, 9);
    }
  }
  ASSERT_TRUE(open({QString::fromStdString((dir_ / "tomo").string())}));
  viewers::MammoViewport* rcc = port(0);
  ASSERT_TRUE(rcc->image());
  EXPECT_EQ(rcc->frameCount(), 9);
  EXPECT_EQ(rcc->frame(), 4);  // opens in the middle of the stack
  const int marker = linearGrey(kMarker, kWindowCenter, kWindowWidth);
  auto markerY = [&] {
    return brightCentroid(grab(0), marker, false).y;  // R: the chest wall half is the right one
  };
  const double s = fitScale(0);
  const double top = (rcc->height() - kMammoRows * s) / 2;
  EXPECT_NEAR(markerY(), top + (tomoMarkerRow(4) + 10) * s, 3.0);
  const QPointF at(rcc->width() / 2.0, rcc->height() / 2.0);
  QWheelEvent up(at, rcc->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                 Qt::NoScrollPhase, false);
  QApplication::sendEvent(rcc, &up);
  QApplication::sendEvent(rcc, &up);
  EXPECT_EQ(rcc->frame(), 6);
  EXPECT_NEAR(markerY(), top + (tomoMarkerRow(6) + 10) * s, 3.0);
  EXPECT_FALSE(view()->state()->zoom().pixelsPerMm.has_value());  // scrolling did not zoom
  // Ctrl+wheel zooms instead.
  QWheelEvent zoom(at, rcc->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                   Qt::ControlModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(rcc, &zoom);
  EXPECT_EQ(rcc->frame(), 6);
  EXPECT_TRUE(view()->state()->zoom().pixelsPerMm.has_value());
}

TEST_F(MammoReadingTest, TheDemonstrationDetectorsMarksAndHeatmapAreDrawnAndStepped) {
  writeSampleMammoStudy(dir_ / "sample");
  ASSERT_TRUE(open({QString::fromStdString((dir_ / "sample").string())}));
  app::MammoFindingsController* findings = mammo()->findings();
  window_->action(QStringLiteral("mammo.findings.detect"))->trigger();
  ASSERT_TRUE(waitUntil([&] { return findings->findings().has_value(); }, 60000));
  ASSERT_TRUE(waitUntil([this] { return mammo()->settled(); }));
  EXPECT_TRUE(findings->findings()->demonstration);
  EXPECT_TRUE(view()->findingsText().contains(QStringLiteral("NOT A DIAGNOSIS")))
      << view()->findingsText().toStdString();
  // The L CC viewport draws its mass mark (red-orange outline) and its heatmap (yellow to red).
  viewers::MammoViewport* lcc = port(1);
  ASSERT_EQ(lcc->image()->title, QStringLiteral("L CC"));
  // Findings name images by SOP Instance UID (as the command line and reports do).
  ASSERT_FALSE(lcc->image()->sopInstanceUid.empty());
  const core::mammo::ImageFindings* mine = nullptr;
  for (const auto& f : findings->findings()->images) {
    if (f.imageId == lcc->image()->sopInstanceUid) {
      mine = &f;
    }
  }
  ASSERT_NE(mine, nullptr);
  ASSERT_FALSE(mine->marks.empty());
  EXPECT_TRUE(std::any_of(mine->marks.begin(), mine->marks.end(),
                          [](const auto& m) { return m.kind == "mass"; }));
  auto markPixel = [](QRgb p) {
    return qRed(p) > 230 && qGreen(p) > 70 && qGreen(p) < 110 && qBlue(p) < 80;
  };
  auto count = [](const QImage& g, auto predicate) {
    int n = 0;
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        n += predicate(g.pixel(x, y)) ? 1 : 0;
      }
    }
    return n;
  };
  const QImage with = grab(1);
  EXPECT_GT(count(with, markPixel), 30);
  // The heatmap switched off: what changes is warm (yellow to red over grey), and the marks stay.
  window_->action(QStringLiteral("mammo.findings.heatmap"))->setChecked(false);
  const QImage without = grab(1);
  int changed = 0, warm = 0;
  for (int y = 0; y < with.height(); ++y) {
    for (int x = 0; x < with.width(); ++x) {
      const QRgb a = with.pixel(x, y), b = without.pixel(x, y);
      if (a != b) {
        ++changed;
        warm += qRed(a) > qBlue(a) + 10 && qRed(a) >= qRed(b) ? 1 : 0;
      }
    }
  }
  EXPECT_GT(changed, 200);
  EXPECT_GT(warm, changed * 8 / 10);
  EXPECT_GT(count(without, markPixel), 30);
  // N steps to the highest-scoring mark first.
  keyClick(view(), Qt::Key_N);
  EXPECT_EQ(view()->state()->currentMark(), 0);
  EXPECT_TRUE(view()->findingsText().contains(QStringLiteral("mark 1")))
      << view()->findingsText().toStdString();
  // Saved and read back, the findings are the same; a broken file is refused by name and line.
  const QString saved = QString::fromStdString((dir_ / "findings.json").string());
  ASSERT_TRUE(findings->saveFile(saved));
  const std::size_t marks = findings->findings()->images.size();
  findings->clear();
  ASSERT_TRUE(findings->openFile(saved));
  EXPECT_EQ(findings->findings()->images.size(), marks);
  const fs::path bad = dir_ / "bad.json";
  std::ofstream(bad) << "{\"images\": [\n  {\"imageId\": \"x\", \"marks\": [{\"kind\": \"mass\", "
                        "\"score\": 7}]}]}";
  EXPECT_FALSE(findings->openFile(QString::fromStdString(bad.string())));
  EXPECT_EQ(findings->findings()->images.size(), marks);  // unchanged
}

TEST_F(MammoReadingTest, AServersDetectionModelGivesFindingsNamedAfterTheServer) {
  test::ForgetServers forget;
  server::ServerOptions options;
  options.datastore = dir_ / "store";
  server::MonaiServer app(std::make_shared<annotation::LocalEngineBackend>(), options);
  const std::string url = "http://127.0.0.1:" + std::to_string(core::net::freeLocalPort());
  core::net::HttpServer http(url,
                             [&app](const core::net::ServerRequest& r) { return app.handle(r); });
  app::AiController* ai = window_->editing()->ai();
  app::MammoFindingsController* findings = mammo()->findings();
  EXPECT_TRUE(findings->serverModels().isEmpty());
  ai->addServer(QString::fromStdString(url));
  ASSERT_TRUE(waitUntil([&] { return !findings->serverModels().isEmpty(); }, 30000));
  QStringList models = findings->serverModels();
  ASSERT_EQ(models.size(), 2);  // the detector, and its probability map as a 2-D segmentation
  EXPECT_EQ(models.filter(QStringLiteral("mammo_demo_heatmap")).size(), 1);
  models = models.filter(QStringLiteral("mammo_demo_detector"));
  ASSERT_EQ(models.size(), 1);

  writeSampleMammoStudy(dir_ / "sample");
  ASSERT_TRUE(open({QString::fromStdString((dir_ / "sample").string())}));
  findings->findWithServer(models.front());
  ASSERT_TRUE(waitUntil([&] { return findings->findings().has_value(); }, 60000));
  ASSERT_TRUE(waitUntil([this] { return mammo()->settled(); }));
  EXPECT_NE(findings->findings()->source.find(url), std::string::npos)
      << findings->findings()->source;
  EXPECT_TRUE(findings->findings()->demonstration);
  EXPECT_TRUE(view()->findingsText().contains(QStringLiteral("NOT A DIAGNOSIS")));
  bool massOnLeftCc = false;
  for (const auto& image : findings->findings()->images) {
    if (image.imageId == port(1)->image()->sopInstanceUid) {
      for (const auto& m : image.marks) {
        massOnLeftCc = massOnLeftCc || m.kind == "mass";
      }
    }
  }
  EXPECT_TRUE(massOnLeftCc);
}

TEST_F(MammoReadingTest, AReportDraftedFromTheFindingsIsReviewedSignedAndAudited) {
  QStandardPaths::setTestModeEnabled(true);
  QFile::remove(app::MammoReportPanel::auditFile());
  writeSampleMammoStudy(dir_ / "sample");
  ASSERT_TRUE(open({QString::fromStdString((dir_ / "sample").string())}));
  app::MammoReportPanel* panel = mammo()->reportPanel();
  EXPECT_FALSE(panel->draftFromFindings());  // no findings yet
  window_->action(QStringLiteral("mammo.report"))->trigger();
  EXPECT_TRUE(mammo()->reportDock()->isVisible());
  mammo()->findings()->detect();
  ASSERT_TRUE(waitUntil([&] { return mammo()->findings()->findings().has_value(); }, 60000));
  ASSERT_TRUE(panel->draftFromFindings());
  ASSERT_TRUE(panel->report().has_value());
  EXPECT_FALSE(panel->report()->content().findings.empty());
  EXPECT_TRUE(panel->statusText().contains(QStringLiteral("NOT A DIAGNOSIS")));
  int proposed = 0;
  for (int i = 0; i < panel->fields()->topLevelItemCount(); ++i) {
    proposed += panel->fields()->topLevelItem(i)->text(3) == QStringLiteral("AI-proposed");
  }
  EXPECT_GT(proposed, 3);
  // Signing an unreviewed draft without a composition lists what is missing.
  const QStringList missing = panel->sign(QStringLiteral("Test Reader"));
  EXPECT_FALSE(missing.isEmpty());
  EXPECT_TRUE(missing.join(QStringLiteral(" ")).contains(QStringLiteral("composition")))
      << missing.join(QStringLiteral("; ")).toStdString();
  EXPECT_FALSE(panel->report()->locked());

  ASSERT_TRUE(panel->acceptAll());
  ASSERT_TRUE(panel->setComposition(core::report::BreastComposition::B));
  ASSERT_TRUE(panel->setAssessment(core::report::AssessmentCategory::Suspicious));
  EXPECT_EQ(panel->report()->content().assessmentOverall.provenance(),
            core::report::Provenance::Edited);
  EXPECT_TRUE(panel->differencesText().contains(QStringLiteral("assessment")))
      << panel->differencesText().toStdString();
  ASSERT_TRUE(panel->sign(QStringLiteral("Test Reader")).isEmpty());
  EXPECT_TRUE(panel->report()->locked());
  EXPECT_FALSE(panel->setImpression(QStringLiteral("changed after signing")));
  EXPECT_TRUE(panel->addAddendum(QStringLiteral("Compared with the prior."),
                                 QStringLiteral("Test Reader")));
  EXPECT_EQ(panel->report()->signOff().addenda().size(), 1u);

  const QString saved = QString::fromStdString((dir_ / "report.json").string());
  ASSERT_TRUE(panel->save(saved));
  const auto back = core::report::readMammographyReport(saved.toStdString());
  EXPECT_TRUE(back.locked());
  // The audit trail holds the review, the edit and the signature, and no patient identifier.
  const auto trail = core::report::readAuditTrail(app::MammoReportPanel::auditFile().toStdString());
  auto has = [&](const std::string& action) {
    return std::any_of(trail.begin(), trail.end(),
                       [&](const auto& e) { return e.action == action; });
  };
  EXPECT_TRUE(has("sign"));
  EXPECT_TRUE(has("edit"));
  EXPECT_TRUE(has("addendum"));
  QFile audit(app::MammoReportPanel::auditFile());
  ASSERT_TRUE(audit.open(QIODevice::ReadOnly));
  const QByteArray text = audit.readAll();
  EXPECT_FALSE(text.contains("DELINEATE^MAMMO"));
  EXPECT_FALSE(text.contains("DLN-0003"));
  audit.close();
  QFile::remove(app::MammoReportPanel::auditFile());
}

}  // namespace delineate::test
