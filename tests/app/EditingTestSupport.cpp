#include "EditingTestSupport.h"

#include <QAction>
#include <QApplication>
#include <QMouseEvent>
#include <algorithm>
#include <cmath>

#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/shell/JobRunner.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/io/VolumeFileIO.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"
#include "viewers/VtkOpenGLWidget.h"

namespace delineate::test {

void EditingWindowTest::SetUp() {
  DELINEATE_REQUIRE_GUI();
  auto path = dir_ / "ct.nii.gz";
  if (loadAsDicom_) {
    path = dir_ / "dicom";
    core::NullProgress quiet;
    core::writeDicomSeries(*SyntheticCt::make(), path, {}, quiet);
  } else {
    core::writeVolumeFile(*SyntheticCt::make(), path);
  }
  window_ = std::make_unique<app::MainWindow>(
      app::MainWindowOptions{.interactive = interactive_, .rememberRecent = false});
  window_->resize(1400, 900);
  window_->show();
  QObject::connect(window_->editing(), &app::EditingFeature::errorShown,
                   [this](const QString& m) { errors_.push_back(m); });
  openPathAndWait(path);
  centre_ = window_->views()->state()->cursor();
}

void EditingWindowTest::openPathAndWait(const std::filesystem::path& path) {
  bool shown = false;
  // Disconnected before `shown` goes: a later image shown by the test must not write to it.
  const QMetaObject::Connection connection =
      QObject::connect(window_.get(), &app::MainWindow::volumeShown, [&shown] { shown = true; });
  window_->openPath(QString::fromStdString(path.string()));
  const bool ok = waitUntil([&] { return shown; }, 60000);
  QObject::disconnect(connection);
  ASSERT_TRUE(ok) << path << " was not shown";
  ASSERT_TRUE(waitSettled());
}

void EditingWindowTest::TearDown() {
  window_.reset();
}

app::EditingFeature* EditingWindowTest::editing() const {
  return window_->editing();
}

app::EditSession* EditingWindowTest::session() const {
  return window_->editing()->session();
}

viewers::SliceView* EditingWindowTest::view(int index) const {
  return window_->views()->sliceView(index);
}

namespace {

void send(QWidget* canvas, QEvent::Type type, QPointF at, Qt::MouseButton button,
          Qt::MouseButtons buttons, Qt::KeyboardModifiers modifiers) {
  QMouseEvent e(type, at, canvas->mapToGlobal(at), button, buttons, modifiers);
  QApplication::sendEvent(canvas, &e);
}

}  // namespace

void EditingWindowTest::stroke(viewers::SliceView* v, const std::vector<core::Vec3>& points,
                               Qt::KeyboardModifiers modifiers) {
  QWidget* canvas = v->canvas();
  send(canvas, QEvent::MouseButtonPress, v->worldToCanvas(points.front()), Qt::LeftButton,
       Qt::LeftButton, modifiers);
  for (const core::Vec3& p : points) {
    send(canvas, QEvent::MouseMove, v->worldToCanvas(p), Qt::NoButton, Qt::LeftButton, modifiers);
  }
  send(canvas, QEvent::MouseButtonRelease, v->worldToCanvas(points.back()), Qt::LeftButton,
       Qt::NoButton, modifiers);
}

void EditingWindowTest::click(viewers::SliceView* v, const core::Vec3& point,
                              Qt::KeyboardModifiers modifiers) {
  stroke(v, {point}, modifiers);
}

void EditingWindowTest::openImage(const core::Volume& image, const std::string& fileName) {
  const auto path = dir_ / fileName;
  core::writeVolumeFile(image, path);
  openPathAndWait(path);
}

bool EditingWindowTest::waitSettled(int timeoutMs) {
  return waitUntil(
      [&] { return window_->editingSettled() && window_->views()->allViewsRendered(); }, timeoutMs);
}

QColor EditingWindowTest::colourAt(viewers::SliceView* v, const core::Vec3& world) {
  const QImage image = grabCanvas(v->canvas());
  const qreal dpr = v->canvas()->devicePixelRatioF();
  const QPointF at = v->worldToCanvas(world) * dpr;
  std::vector<int> r, g, b;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int x = static_cast<int>(std::floor(at.x())) + dx;
      const int y = static_cast<int>(std::floor(at.y())) + dy;
      if (image.valid(x, y)) {
        const QRgb p = image.pixel(x, y);
        r.push_back(qRed(p));
        g.push_back(qGreen(p));
        b.push_back(qBlue(p));
      }
    }
  }
  if (r.empty()) {
    return QColor();
  }
  auto median = [](std::vector<int>& v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  return QColor(median(r), median(g), median(b));
}

std::size_t EditingWindowTest::countLabel(std::uint16_t label) const {
  const auto map = session()->activeMap();
  if (!map) {
    return 0;
  }
  return static_cast<std::size_t>(
      std::count_if(map->data(), map->data() + map->voxelCount(),
                    [label](std::uint16_t v) { return label == 0 ? v != 0 : v == label; }));
}

std::vector<std::uint16_t> EditingWindowTest::labelVoxels() const {
  const auto map = session()->activeMap();
  return map ? std::vector<std::uint16_t>(map->data(), map->data() + map->voxelCount())
             : std::vector<std::uint16_t>{};
}

QColor blend(const QColor& segment, int gray, double alpha) {
  auto mix = [&](int c) { return static_cast<int>(std::lround(alpha * c + (1 - alpha) * gray)); };
  return QColor(mix(segment.red()), mix(segment.green()), mix(segment.blue()));
}

int colourDistance(const QColor& a, const QColor& b) {
  return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()),
                   std::abs(a.blue() - b.blue())});
}

}  // namespace delineate::test
