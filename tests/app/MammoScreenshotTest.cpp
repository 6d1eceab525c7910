// Runs the real `delineate --layout mammo-4up --screenshot` on synthetic studies and checks the
// PNG: each breast in its viewport with the chest wall against the edge the protocol asks for and
// its marker on the tissue side; a missing view leaves its viewport saying so; an unknown layout
// is refused.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <filesystem>

#include "GuiTestSupport.h"
#include "MammoTestStudy.h"
#include "TempDir.h"

namespace delineate::test {

namespace {

struct ProcessResult {
  int exitCode = -1;
  QString err;
};

ProcessResult runDelineate(const QStringList& args) {
  QProcess p;
  p.start(QStringLiteral(DELINEATE_BINARY), args);
  ProcessResult r;
  if (!p.waitForStarted(10000) || !p.waitForFinished(240000)) {
    p.kill();
    p.waitForFinished();
    r.err = QStringLiteral("did not finish");
    return r;
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
  r.err = QString::fromLocal8Bit(p.readAllStandardError());
  return r;
}

int greyPixels(const QImage& image, const QRect& area, int level) {
  int n = 0;
  for (int y = area.top(); y <= area.bottom(); ++y) {
    for (int x = area.left(); x <= area.right(); ++x) {
      const QRgb p = image.pixel(x, y);
      n += qRed(p) == qGreen(p) && qGreen(p) == qBlue(p) && std::abs(qGray(p) - level) <= 2;
    }
  }
  return n;
}

}  // namespace

TEST(MammoScreenshot, FourUpPutsEachChestWallAgainstTheMiddle) {
  DELINEATE_REQUIRE_GUI();
  TempDir dir;
  writeTestStudy(dir / "study", "current", "20260502");
  const QString png = QString::fromStdString((dir / "4up.png").string());
  const QString json = QString::fromStdString((dir / "4up.json").string());
  const ProcessResult r =
      runDelineate({"--layout", "mammo-4up", "--screenshot", png, "--views-json", json, "--size",
                    "1200x900", QString::fromStdString((dir / "study").string())});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  QImage image(png);
  ASSERT_FALSE(image.isNull());
  image = image.convertToFormat(QImage::Format_RGB32);
  QFile f(json);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
  EXPECT_EQ(root.value("layout").toString(), QStringLiteral("mammo-4up"));
  const QJsonArray views = root.value("views").toArray();
  ASSERT_EQ(views.size(), 4);
  const char* names[] = {"R CC", "L CC", "R MLO", "L MLO"};
  // Tissue 2000 and the marker 4000 in the file's window 2048/4096 (DICOM linear).
  const int tissue = 124, marker = 249;
  for (int i = 0; i < 4; ++i) {
    const QJsonObject v = views[i].toObject();
    SCOPED_TRACE(names[i]);
    EXPECT_EQ(v.value("name").toString(), QString::fromLatin1(names[i]));
    const bool wallRight = i % 2 == 0;
    EXPECT_EQ(v.value("chestWall").toString(),
              wallRight ? QStringLiteral("right") : QStringLiteral("left"));
    const QRect rect(v.value("x").toInt(), v.value("y").toInt(), v.value("width").toInt(),
                     v.value("height").toInt());
    const int midY = rect.center().y();
    const int wallX = wallRight ? rect.right() - 2 : rect.left() + 2;
    const int farX = wallRight ? rect.left() + 2 : rect.right() - 2;
    EXPECT_NEAR(qGray(image.pixel(wallX, midY)), tissue, 2);
    EXPECT_LT(qGray(image.pixel(farX, midY)), 20);
    // The marker lies in the half at the chest wall, none of it in the other half.
    QRect wallHalf = rect, farHalf = rect;
    if (wallRight) {
      wallHalf.setLeft(rect.center().x());
      farHalf.setRight(rect.center().x() - 1);
    } else {
      wallHalf.setRight(rect.center().x());
      farHalf.setLeft(rect.center().x() + 1);
    }
    EXPECT_GT(greyPixels(image, wallHalf, marker), 150);
    EXPECT_LT(greyPixels(image, farHalf, marker), 20);  // at most anti-aliased caption text
  }
  // The right breasts are in the left column, facing the left breasts.
  EXPECT_LT(views[0].toObject().value("x").toInt(), views[1].toObject().value("x").toInt());
}

TEST(MammoScreenshot, AMissingViewIsSaidAndAnUnknownLayoutRefused) {
  DELINEATE_REQUIRE_GUI();
  TempDir dir;
  for (const char* view : {"CC", "MLO"}) {
    TestMammo m;
    m.view = view;
    writeTestMammo(dir / "study", m);
  }
  TestMammo lcc;
  lcc.laterality = "L";
  writeTestMammo(dir / "study", lcc);
  const QString png = QString::fromStdString((dir / "3.png").string());
  const QString json = QString::fromStdString((dir / "3.json").string());
  const ProcessResult r =
      runDelineate({"--layout", "mammo-4up", "--screenshot", png, "--views-json", json,
                    QString::fromStdString((dir / "study").string())});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  QFile f(json);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
  const QJsonObject last = root.value("views").toArray()[3].toObject();
  EXPECT_TRUE(last.value("empty").toString().contains(QStringLiteral("L MLO")));
  EXPECT_TRUE(root.value("notes").toArray()[0].toString().contains(QStringLiteral("missing")))
      << QJsonDocument(root).toJson().toStdString();

  const ProcessResult bad = runDelineate({"--layout", "mammo-5up", "--screenshot", png,
                                          QString::fromStdString((dir / "study").string())});
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_TRUE(bad.err.contains(QStringLiteral("mammo-5up"))) << bad.err.toStdString();
}

}  // namespace delineate::test
