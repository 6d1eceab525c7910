// The app on a HiDPI screen (QT_SCALE_FACTOR=2, in the real window on a virtual X screen): the
// screenshot has twice the pixels, and each slice view shows the same picture as at ratio 1, only
// sharper — compared after halving it. (The views' frames were once scaled a second time there.)
#include <gtest/gtest.h>

#include <unistd.h>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "RunCommand.h"

namespace fs = std::filesystem;

namespace {

// Takes a screenshot of the brain MR sample (with its labels) in the 2x2 layout at `scale`.
bool shoot(const fs::path& png, const fs::path& views, const char* scale) {
  const fs::path sample = fs::path(DELINEATE_GUIDE_SAMPLE) / "brain-mr";
  // A virtual screen of its own, large enough for the window at twice the pixels.
  const std::string command =
      std::string("QT_SCALE_FACTOR=") + scale +
      " xvfb-run -a -s '-screen 0 2400x1600x24 -noreset' '" + DELINEATE_APP + "' --screenshot '" +
      png.string() + "' --views-json '" + views.string() +
      "' --size 900x640 --layout 2x2 --labels '" + (sample / "brain-mr_labels.nii.gz").string() +
      "' '" + (sample / "brain-mr.nii.gz").string() + "'";
  std::string output;
  const int rc = delineate::test::runCommand(command, &output);
  EXPECT_EQ(rc, 0) << output;
  return rc == 0;
}

QJsonArray viewsOf(const fs::path& file) {
  QFile f(QString::fromStdString(file.string()));
  EXPECT_TRUE(f.open(QIODevice::ReadOnly));
  return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("views")).toArray();
}

TEST(HiDpi, TheViewsShowTheSamePictureAtTwiceThePixels) {
  const fs::path dir =
      fs::temp_directory_path() / ("delineate-hidpi-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ASSERT_TRUE(shoot(dir / "1.png", dir / "1.json", "1"));
  ASSERT_TRUE(shoot(dir / "2.png", dir / "2.json", "2"));
  const QImage one(QString::fromStdString((dir / "1.png").string()));
  const QImage two(QString::fromStdString((dir / "2.png").string()));
  ASSERT_EQ(one.size(), QSize(900, 640));
  ASSERT_EQ(two.size(), QSize(1800, 1280));
  const QJsonArray views1 = viewsOf(dir / "1.json");
  const QJsonArray views2 = viewsOf(dir / "2.json");
  ASSERT_EQ(views1.size(), 4);
  ASSERT_EQ(views2.size(), 4);
  const QImage half = two.scaled(two.size() / 2, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  for (int v = 0; v < 3; ++v) {  // the slice views (the 3D view's shading differs with size)
    const QJsonObject a = views1[v].toObject();
    const QJsonObject b = views2[v].toObject();
    ASSERT_EQ(a.value(QStringLiteral("name")), b.value(QStringLiteral("name")));
    EXPECT_NEAR(b.value(QStringLiteral("width")).toInt(),
                2 * a.value(QStringLiteral("width")).toInt(), 4);
    // Mean grey difference over the middle half of the view (away from the text overlays).
    const int x0 = a.value(QStringLiteral("x")).toInt(), y0 = a.value(QStringLiteral("y")).toInt();
    const int w = a.value(QStringLiteral("width")).toInt(),
              h = a.value(QStringLiteral("height")).toInt();
    double sum = 0;
    int n = 0;
    for (int y = y0 + h / 4; y < y0 + 3 * h / 4; y += 2) {
      for (int x = x0 + w / 4; x < x0 + 3 * w / 4; x += 2) {
        sum += std::abs(qGray(one.pixel(x, y)) - qGray(half.pixel(x, y)));
        ++n;
      }
    }
    EXPECT_LT(sum / n, 12.0) << a.value(QStringLiteral("name")).toString().toStdString()
                             << ": the view at ratio 2, halved, differs from the view at ratio 1";
  }
  fs::remove_all(dir);
}

}  // namespace
