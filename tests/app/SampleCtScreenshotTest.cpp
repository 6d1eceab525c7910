// The built-in sample CT, written as a real DICOM series and opened by the real `delineate`
// binary: in the axial view a radiologist must see the liver on the screen left (patient right)
// and the metal skin marker on the screen right (patient left), anterior.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/sample/SampleCase.h"

namespace {

QRect axialRect(const QString& json) {
  QFile f(json);
  if (!f.open(QIODevice::ReadOnly)) {
    return {};
  }
  for (const auto& v : QJsonDocument::fromJson(f.readAll()).object().value("views").toArray()) {
    const auto o = v.toObject();
    if (o.value("name").toString() == "axial") {
      return {o.value("x").toInt(), o.value("y").toInt(), o.value("width").toInt(),
              o.value("height").toInt()};
    }
  }
  return {};
}

bool grey(QRgb p, int lo, int hi) {
  return std::abs(qRed(p) - qGreen(p)) < 10 && std::abs(qGreen(p) - qBlue(p)) < 10 &&
         qGray(p) >= lo && qGray(p) <= hi;
}

}  // namespace

TEST(SampleCtScreenshot, LiverOnTheScreenLeftMarkerOnTheScreenRight) {
  DELINEATE_REQUIRE_GUI();
  delineate::test::TempDir dir;
  const auto ct = delineate::core::sample::makeAbdomenCt(20261121);
  delineate::core::NullProgress progress;
  delineate::core::writeDicomSeries(*ct.image, dir / "dicom", {}, progress);

  const QString png = QString::fromStdString((dir / "shot.png").string());
  const QString json = QString::fromStdString((dir / "views.json").string());
  QProcess p;
  p.start(QStringLiteral(DELINEATE_BINARY),
          {"--screenshot", png, "--layout", "1x3", "--size", "1500x640", "--views-json", json,
           QString::fromStdString((dir / "dicom").string())});
  ASSERT_TRUE(p.waitForFinished(240000));
  ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  const QImage image = QImage(png).convertToFormat(QImage::Format_RGB32);
  const QRect view = axialRect(json);
  ASSERT_TRUE(view.isValid());

  // The default abdomen window is W 400 / L 50: air is black, the liver (62 HU) mid grey, metal
  // white. Work relative to the body's horizontal extent.
  int left = view.right(), right = view.left();
  double liverX = 0, liverN = 0, markerX = 0, markerY = 0, markerN = 0;
  for (int y = view.top() + 20; y < view.bottom() - 20; ++y) {
    for (int x = view.left() + 20; x < view.right() - 20; ++x) {
      const QRgb c = image.pixel(x, y);
      if (!grey(c, 0, 25)) {
        left = std::min(left, x);
        right = std::max(right, x);
      }
      if (grey(c, 125, 150)) {
        liverX += x;
        ++liverN;
      }
      // Metal with air just above it: the skin marker (the table has air above too, but lies
      // below the body; ribs and spine have tissue around them).
      if (grey(c, 250, 255) && grey(image.pixel(x, y - 8), 0, 25) && y < view.center().y()) {
        markerX += x;
        markerY += y;
        ++markerN;
      }
    }
  }
  ASSERT_GT(liverN, 1000);
  ASSERT_GT(markerN, 3) << "no skin marker found in the upper half of the axial view";
  const double mid = (left + right) / 2.0;
  EXPECT_LT(liverX / liverN, mid - 20) << "liver (patient right) must be on the screen left";
  EXPECT_GT(markerX / markerN, mid + 0.5 * (right - mid))
      << "marker (patient left) must be on the screen right";
  EXPECT_LT(markerY / markerN, view.center().y()) << "marker (anterior) must be up";
}
