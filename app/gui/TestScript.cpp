#include "app/gui/TestScript.h"

#include <QApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMouseEvent>
#include <QTimer>
#include <cstdio>
#include <cstdlib>

#include "app/gui/MainWindow.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/ToolController.h"
#include "core/io/LabelMapFileIO.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"
#include "viewers/VtkOpenGLWidget.h"

namespace delineate::app {

namespace {

void sendMouse(QWidget* canvas, QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
  const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
  QMouseEvent e(type, at, canvas->mapToGlobal(at), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(canvas, &e);
}

}  // namespace

TestScript* TestScript::fromEnvironment(MainWindow* window) {
  const char* path = std::getenv("DELINEATE_TEST_SCRIPT");
  if (path == nullptr || *path == '\0') {
    return nullptr;
  }
  QFile file(QString::fromLocal8Bit(path));
  if (!file.open(QIODevice::ReadOnly)) {
    std::fprintf(stderr, "delineate: cannot read DELINEATE_TEST_SCRIPT %s\n", path);
    return nullptr;
  }
  return new TestScript(window, QJsonDocument::fromJson(file.readAll()).object());
}

TestScript::TestScript(MainWindow* window, QJsonObject script)
    : QObject(window), window_(window), script_(std::move(script)), timer_(new QTimer(this)) {
  timer_->setInterval(100);
  connect(timer_, &QTimer::timeout, this, &TestScript::poll);
  timer_->start();
}

void TestScript::poll() {
  if (done_ || !window_->volume() || !window_->views()->allViewsRendered() ||
      !window_->editing()->settled()) {
    return;
  }
  done_ = true;
  timer_->stop();
  run();
}

void TestScript::run() {
  ToolController* tools = window_->editing()->tools();
  tools->setTool(script_.value("tool").toString(QStringLiteral("tool.brush")));
  tools->setBrushRadiusMm(script_.value("radiusMm").toDouble(4));
  tools->setBrushSphere(script_.value("sphere").toBool(false));
  const auto& g = window_->volume()->geometry();
  int strokes = 0;
  for (const QJsonValue& s : script_.value("strokes").toArray()) {
    const QString view = s.toObject().value("view").toString(QStringLiteral("axial"));
    viewers::SliceView* slice =
        window_->views()->sliceView(view == QLatin1String("coronal")    ? 1
                                    : view == QLatin1String("sagittal") ? 2
                                                                        : 0);
    std::vector<core::Vec3> points;
    for (const QJsonValue& v : s.toObject().value("voxels").toArray()) {
      const QJsonArray ijk = v.toArray();
      points.push_back(
          g.indexToWorld({ijk.at(0).toDouble(), ijk.at(1).toDouble(), ijk.at(2).toDouble()}));
    }
    if (points.empty()) {
      continue;
    }
    window_->views()->state()->setCursor(points.front());  // the view shows that slice
    QWidget* canvas = slice->canvas();
    sendMouse(canvas, QEvent::MouseButtonPress, slice->worldToCanvas(points.front()),
              Qt::LeftButton);
    for (const core::Vec3& p : points) {
      sendMouse(canvas, QEvent::MouseMove, slice->worldToCanvas(p), Qt::LeftButton);
    }
    sendMouse(canvas, QEvent::MouseButtonRelease, slice->worldToCanvas(points.back()),
              Qt::NoButton);
    ++strokes;
  }
  const QString dump = script_.value("dump").toString();
  if (const auto map = window_->editing()->session()->activeMap(); map && !dump.isEmpty()) {
    core::writeLabelMapFiles(*map, dump.toStdString());
  }
  std::printf("delineate: test script done (%d strokes)\n", strokes);
  std::fflush(stdout);
}

}  // namespace delineate::app
