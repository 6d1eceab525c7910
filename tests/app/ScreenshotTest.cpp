// Runs the real `delineate --screenshot` and checks, in the PNG, that a radiologist would see the
// anatomy where the geometry puts it (radiological convention: patient left on screen right).
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <fstream>

#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "TempDir.h"
#include "core/io/VolumeFileIO.h"

using delineate::test::SyntheticCt;
using delineate::test::TempDir;

namespace {

struct ProcessRun {
  int exitCode = -1;
  QString out;
  QString err;
};

ProcessRun runDelineate(const QStringList& args,
                        const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(DELINEATE_BINARY), args);
  ProcessRun r;
  if (!p.waitForStarted(10000) || !p.waitForFinished(240000)) {
    p.kill();
    p.waitForFinished();
    r.err = QStringLiteral("did not finish: ") + p.errorString();
    return r;
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
  r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
  r.err = QString::fromLocal8Bit(p.readAllStandardError());
  return r;
}

bool neutral(QRgb p) {
  return std::abs(qRed(p) - qGreen(p)) < 12 && std::abs(qGreen(p) - qBlue(p)) < 12;
}

// Body tissue (40 HU in W 400 / L 40 is grey 127).
bool bodyPixel(QRgb p) {
  return neutral(p) && qGray(p) >= 100 && qGray(p) <= 160;
}
bool whitePixel(QRgb p) {
  return neutral(p) && qGray(p) > 245;
}
bool blackPixel(QRgb p) {
  return neutral(p) && qGray(p) < 20;
}

// The body's bounding box: columns and rows holding a run of at least 15 consecutive body
// pixels (the anti-aliased edges of text overlays and the 1-pixel crosshair lines never do).
QRect bodyBox(const QImage& image, const QRect& view) {
  auto longestRun = [&](int fixed, bool column) {
    int best = 0, run = 0;
    const int n = column ? view.height() : view.width();
    for (int i = 0; i < n; ++i) {
      const QRgb p =
          column ? image.pixel(fixed, view.top() + i) : image.pixel(view.left() + i, fixed);
      run = bodyPixel(p) ? run + 1 : 0;
      best = std::max(best, run);
    }
    return best;
  };
  int x0 = INT_MAX, x1 = -1, y0 = INT_MAX, y1 = -1;
  for (int x = view.left(); x <= view.right(); ++x) {
    if (longestRun(x, true) >= 15) {
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
    }
  }
  for (int y = view.top(); y <= view.bottom(); ++y) {
    if (longestRun(y, false) >= 15) {
      y0 = std::min(y0, y);
      y1 = std::max(y1, y);
    }
  }
  return x1 < 0 || y1 < 0 ? QRect() : QRect(QPoint(x0, y0), QPoint(x1, y1));
}

// Centroid of matching pixels inside `area`, relative to the box centre in units of the box's
// half-size: (-1, -1) is the box's top-left corner, (+1, +1) its bottom-right.
struct Blob {
  int count = 0;
  double rx = 0, ry = 0;
};
template <class Pred>
Blob blobIn(const QImage& image, const QRect& area, const QRect& box, Pred pred) {
  Blob b;
  double sx = 0, sy = 0;
  for (int y = area.top(); y <= area.bottom(); ++y) {
    for (int x = area.left(); x <= area.right(); ++x) {
      if (pred(image.pixel(x, y))) {
        sx += x + 0.5;
        sy += y + 0.5;
        ++b.count;
      }
    }
  }
  if (b.count > 0) {
    const QPointF c = QRectF(box).center();
    b.rx = (sx / b.count - c.x()) / (box.width() / 2.0);
    b.ry = (sy / b.count - c.y()) / (box.height() / 2.0);
  }
  return b;
}

QHash<QString, QRect> readViews(const QString& file) {
  QFile f(file);
  QHash<QString, QRect> out;
  if (!f.open(QIODevice::ReadOnly)) {
    return out;
  }
  const auto views = QJsonDocument::fromJson(f.readAll()).object().value("views").toArray();
  for (const auto& v : views) {
    const auto o = v.toObject();
    out.insert(o.value("name").toString(),
               QRect(o.value("x").toInt(), o.value("y").toInt(), o.value("width").toInt(),
                     o.value("height").toInt()));
  }
  return out;
}

QString keepScreenshot(const QString& png, const QString& name) {
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  const QString kept = QStringLiteral(DELINEATE_SCREENSHOT_DIR "/") + name;
  QFile::remove(kept);
  QFile::copy(png, kept);
  return kept;
}

class ScreenshotOrder : public ::testing::TestWithParam<bool> {};

}  // namespace

TEST_P(ScreenshotOrder, SlicesShowTheAnatomyWhereTheGeometryPutsIt) {
  DELINEATE_REQUIRE_GUI();
  TempDir dir;
  const auto input = dir / "ct.nii.gz";
  delineate::core::writeVolumeFile(*SyntheticCt::make(GetParam()), input);
  const QString png = QString::fromStdString((dir / "shot.png").string());
  const QString json = QString::fromStdString((dir / "views.json").string());
  const ProcessRun r = runDelineate({"--screenshot", png, "--layout", "1x3", "--size", "1500x640",
                                     "--views-json", json, QString::fromStdString(input.string())});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  const QImage image = QImage(png).convertToFormat(QImage::Format_RGB32);
  ASSERT_FALSE(image.isNull());
  keepScreenshot(png, GetParam() ? "slices-1x3-ras-stored.png" : "slices-1x3.png");
  EXPECT_EQ(image.width(), 1500);
  EXPECT_EQ(image.height(), 640);
  const auto views = readViews(json);
  ASSERT_EQ(views.size(), 3);

  // Axial: body 160 x 120 mm, bead on the patient's left = screen right, at (+0.625, 0).
  {
    const QRect view = views.value("axial");
    const QRect box = bodyBox(image, view);
    ASSERT_TRUE(box.isValid());
    EXPECT_NEAR(double(box.width()) / box.height(), 160.0 / 120.0, 0.07);
    const Blob bead = blobIn(image, view, box, whitePixel);
    ASSERT_GT(bead.count, 20);
    EXPECT_NEAR(bead.rx, 50.0 / 80.0, 0.1) << "bead must be on the screen right (radiological)";
    EXPECT_NEAR(bead.ry, 0.0, 0.1);
  }
  // Coronal: body 160 mm wide, 120 mm high; bead right, mid-height; the dark region at the top
  // on the screen left (patient right, superior).
  {
    const QRect view = views.value("coronal");
    const QRect box = bodyBox(image, view);
    ASSERT_TRUE(box.isValid());
    EXPECT_NEAR(double(box.width()) / box.height(), 160.0 / 120.0, 0.07);
    const Blob bead = blobIn(image, view, box, whitePixel);
    ASSERT_GT(bead.count, 20);
    EXPECT_NEAR(bead.rx, 50.0 / 80.0, 0.1);
    EXPECT_NEAR(bead.ry, 0.0, 0.1);
    const Blob dark = blobIn(image, box.adjusted(3, 3, -3, -3), box, blackPixel);
    ASSERT_GT(dark.count, 20);
    EXPECT_NEAR(dark.rx, -25.0 / 80.0, 0.1);
    EXPECT_NEAR(dark.ry, -48.0 / 60.0, 0.12) << "dark region must be at the top (superior)";
  }
  // Sagittal: body 120 x 120 mm; the marker anterior (screen left) and superior (up).
  {
    const QRect view = views.value("sagittal");
    const QRect box = bodyBox(image, view);
    ASSERT_TRUE(box.isValid());
    EXPECT_NEAR(double(box.width()) / box.height(), 1.0, 0.07);
    const Blob marker = blobIn(image, view, box, whitePixel);
    ASSERT_GT(marker.count, 10);
    EXPECT_NEAR(marker.rx, -40.0 / 60.0, 0.1) << "anterior must be on the screen left";
    EXPECT_NEAR(marker.ry, -15.0 / 60.0, 0.1) << "superior must be up";
  }
}

INSTANTIATE_TEST_SUITE_P(VoxelOrder, ScreenshotOrder, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "RasStored" : "LpsStored"; });

TEST(Screenshot, TwoByTwoIncludesThe3DView) {
  DELINEATE_REQUIRE_GUI();
  TempDir dir;
  const auto input = dir / "ct.nii.gz";
  delineate::core::writeVolumeFile(*SyntheticCt::make(), input);
  const QString png = QString::fromStdString((dir / "shot.png").string());
  const QString json = QString::fromStdString((dir / "views.json").string());
  const ProcessRun r = runDelineate({"--screenshot", png, "--layout", "2x2", "--size", "1280x900",
                                     "--views-json", json, QString::fromStdString(input.string())});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  keepScreenshot(png, "layout-2x2.png");
  const QImage image = QImage(png).convertToFormat(QImage::Format_RGB32);
  const auto views = readViews(json);
  ASSERT_EQ(views.size(), 4);
  // The 3D view (anterior view, CT bone preset) draws the bead on the screen right.
  const QRect v = views.value("3d");
  ASSERT_TRUE(v.isValid());
  double sx = 0;
  int n = 0;
  for (int y = v.top() + 24; y <= v.bottom(); ++y) {  // below the "3D  CT bone" label
    for (int x = v.left(); x <= v.right(); ++x) {
      if (qGray(image.pixel(x, y)) > 90) {
        sx += x;
        ++n;
      }
    }
  }
  ASSERT_GT(n, 50) << "3D view is empty";
  EXPECT_GT(sx / n, v.center().x() + v.width() * 0.05);
}

TEST(Screenshot, BadInputFailsWithTheFileNamed) {
  DELINEATE_REQUIRE_GUI();
  TempDir dir;
  const auto broken = dir / "broken.nii.gz";
  std::ofstream(broken) << "this is not a NIfTI file";
  const QString png = QString::fromStdString((dir / "shot.png").string());
  ProcessRun r = runDelineate({"--screenshot", png, QString::fromStdString(broken.string())});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.err.contains("broken.nii.gz")) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(png));

  r = runDelineate({"--screenshot", png, QString::fromStdString((dir / "missing").string())});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.err.contains("missing")) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("no such file")) << r.err.toStdString();
}

TEST(Screenshot, VersionAndUsageNeedNoDisplay) {
  auto env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  ProcessRun r = runDelineate({"--version"}, env);
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_TRUE(r.out.startsWith("delineate ")) << r.out.toStdString();
  r = runDelineate({"--layout", "3x3", "x.nii"}, env);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.err.contains("3x3"));
  r = runDelineate({"--screenshot", "/tmp/x.png", "x.nii"}, env);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(r.err.contains("DISPLAY"));
}
