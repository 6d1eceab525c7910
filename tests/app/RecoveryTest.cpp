// Crash recovery end to end: the real `delineate` paints (test script through the views' event
// path), is aborted (SIGABRT, what a failed assertion in a decoder does), and the next start with
// --recover shows the recovered label map.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <csignal>
#include <filesystem>
#include <fstream>

#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "TempDir.h"
#include "app/gui/AppOptions.h"
#include "core/edit/EditJournal.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/VolumeFileIO.h"

using namespace delineate;
using delineate::test::SyntheticCt;
using delineate::test::TempDir;

namespace {

QRect viewRect(const QString& viewsJson, const QString& name) {
  QFile f(viewsJson);
  if (!f.open(QIODevice::ReadOnly)) {
    return {};
  }
  for (const QJsonValue& v : QJsonDocument::fromJson(f.readAll()).object()["views"].toArray()) {
    const QJsonObject o = v.toObject();
    if (o["name"].toString() == name) {
      return QRect(o["x"].toInt(), o["y"].toInt(), o["width"].toInt(), o["height"].toInt());
    }
  }
  return {};
}

// The default segment colour (128, 174, 128) over grey: green clearly above red and blue.
bool segmentPixel(QRgb p) {
  return qGreen(p) - qRed(p) > 12 && qGreen(p) - qBlue(p) > 12;
}

}  // namespace

TEST(AppOptions, ParsesLabelsAndRecovery) {
  auto o = app::parseAppOptions({"--labels", "l.nii.gz", "--recover", "ct.nii.gz"});
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.labels, std::vector<std::string>{"l.nii.gz"});
  EXPECT_EQ(
      app::parseAppOptions({"--labels", "a.nii.gz", "--labels", "b.nii.gz", "ct.nii.gz"}).labels,
      (std::vector<std::string>{"a.nii.gz", "b.nii.gz"}))
      << "several readers' maps";
  EXPECT_TRUE(o.recover);
  EXPECT_FALSE(o.noRecover);
  EXPECT_TRUE(app::parseAppOptions({"--no-recover"}).noRecover);
  EXPECT_NE(app::parseAppOptions({"--recover", "--no-recover"}).error, "");
  EXPECT_NE(app::parseAppOptions({"--labels", "l.nii.gz"}).error, "") << "labels need an image";
  EXPECT_NE(app::parseAppOptions({"--labels"}).error, "");
}

TEST(Recovery, AbortedSessionIsRecoveredAtTheNextStart) {
  DELINEATE_REQUIRE_GUI();
  TempDir dir;
  const auto image = dir / "ct.nii.gz";
  core::writeVolumeFile(*SyntheticCt::make(), image);
  const auto recovery = dir / "recovery";
  const auto painted = dir / "painted.nii.gz";
  const auto script = dir / "script.json";
  // Two axial strokes of a 6 mm brush on the central slice, on the patient's right.
  std::ofstream(script) << R"({"tool": "tool.brush", "radiusMm": 6, "strokes": [
      {"view": "axial", "voxels": [[40, 60, 20], [45, 60, 20], [55, 60, 20]]},
      {"view": "axial", "voxels": [[45, 40, 20], [45, 50, 20]]}],
      "dump": ")" << painted.string()
                        << R"("})";

  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("DELINEATE_RECOVERY_DIR", QString::fromStdString(recovery.string()));
  env.insert("XDG_CONFIG_HOME", QString::fromStdString((dir / "config").string()));
  QProcessEnvironment scripted = env;
  scripted.insert("DELINEATE_TEST_SCRIPT", QString::fromStdString(script.string()));

  QProcess first;
  first.setProcessEnvironment(scripted);
  first.start(QStringLiteral(DELINEATE_BINARY), {QString::fromStdString(image.string())});
  ASSERT_TRUE(first.waitForStarted(10000));
  QByteArray out;
  auto journalBytes = [&] {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(recovery, ec)) {
      const auto j = e.path() / "journal.bin";
      if (std::filesystem::exists(j, ec)) {
        return std::filesystem::file_size(j, ec);
      }
    }
    return std::uintmax_t{0};
  };
  const bool scripted_done = test::waitUntil(
      [&] {
        out += first.readAllStandardOutput();
        return out.contains("test script done") && journalBytes() > 0;
      },
      120000);
  // SIGABRT, as an assertion inside a third-party decoder ends a process: no destructor, no
  // clean-up; the journal is all that is left.
  ::kill(static_cast<pid_t>(first.processId()), SIGABRT);
  first.waitForFinished(10000);
  EXPECT_EQ(first.exitStatus(), QProcess::CrashExit);
  ASSERT_TRUE(scripted_done) << out.toStdString() << first.readAllStandardError().toStdString();

  // What the journal recovers is exactly what the app had painted.
  const auto sessions = core::EditJournal::findRecoverable(recovery);
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].sourcePath, image.string());
  const core::LabelMap recovered = core::EditJournal::recover(sessions[0]);
  const core::LabelMap expected = core::readLabelMapFiles(painted);
  ASSERT_EQ(recovered.voxelCount(), expected.voxelCount());
  std::size_t nonZero = 0;
  for (std::size_t i = 0; i < expected.voxelCount(); ++i) {
    ASSERT_EQ(recovered.data()[i], expected.data()[i]) << "voxel " << i;
    nonZero += expected.data()[i] != 0;
  }
  EXPECT_GT(nonZero, 200u);

  // The next start recovers without asking and shows it.
  const auto png = dir / "recovered.png";
  const auto views = dir / "views.json";
  QProcess second;
  second.setProcessEnvironment(env);
  second.start(QStringLiteral(DELINEATE_BINARY),
               {"--recover", "--screenshot", QString::fromStdString(png.string()), "--layout",
                "1x3", "--views-json", QString::fromStdString(views.string()),
                QString::fromStdString(image.string())});
  ASSERT_TRUE(second.waitForStarted(10000));
  ASSERT_TRUE(second.waitForFinished(240000));
  ASSERT_EQ(second.exitCode(), 0) << second.readAllStandardError().toStdString();
  const QImage shot(QString::fromStdString(png.string()));
  ASSERT_FALSE(shot.isNull());
  const QRect axial = viewRect(QString::fromStdString(views.string()), "axial");
  ASSERT_TRUE(axial.isValid());
  int n = 0;
  double sx = 0;
  for (int y = axial.top(); y <= axial.bottom(); ++y) {
    for (int x = axial.left(); x <= axial.right(); ++x) {
      if (segmentPixel(shot.pixel(x, y))) {
        ++n;
        sx += x;
      }
    }
  }
  EXPECT_GT(n, 200) << "recovered segment not visible in the axial view";
  // Drawn on the patient's right (i < 64): the screen's left half.
  EXPECT_LT(sx / std::max(n, 1), axial.center().x());
  // Installed and cleaned up: nothing left to recover after a normal exit.
  EXPECT_TRUE(core::EditJournal::findRecoverable(recovery).empty());
}

TEST(LabelsOption, ScreenshotFailsNamingAnUnreadableLabelFile) {
  DELINEATE_REQUIRE_GUI();
  TempDir dir;
  const auto image = dir / "ct.nii.gz";
  core::writeVolumeFile(*SyntheticCt::make(), image);
  const auto labels = dir / "missing_labels.nii.gz";
  QProcess p;
  p.start(QStringLiteral(DELINEATE_BINARY),
          {"--screenshot", QString::fromStdString((dir / "x.png").string()), "--labels",
           QString::fromStdString(labels.string()), QString::fromStdString(image.string())});
  ASSERT_TRUE(p.waitForFinished(120000));
  EXPECT_EQ(p.exitCode(), 1);
  EXPECT_TRUE(QString::fromLocal8Bit(p.readAllStandardError()).contains("missing_labels.nii.gz"));
}
