#include "app/gui/ScreenshotRunner.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QProgressBar>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>
#include <cstdio>

#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/mammo/MammoFeature.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"
#include "viewers/VolumeView.h"
#include "viewers/VtkOpenGLWidget.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

namespace delineate::app {

namespace {

struct NamedCanvas {
  QString name;
  viewers::VtkOpenGLWidget* canvas;
};

QList<NamedCanvas> shownCanvases(MainWindow* window) {
  QList<NamedCanvas> out;
  if (!window->views()->isVisible()) {
    return out;  // the reading view (or another page) is in front of the slice views
  }
  for (QWidget* w : window->views()->visibleViews()) {
    if (auto* s = qobject_cast<viewers::SliceView*>(w)) {
      out.append({QString::fromLatin1(viewers::toString(s->orientation())).toLower(), s->canvas()});
    } else if (auto* v = qobject_cast<viewers::VolumeView*>(w)) {
      out.append({QStringLiteral("3d"), v->canvas()});
    }
  }
  return out;
}

}  // namespace

ScreenshotRunner::ScreenshotRunner(MainWindow* window, QString path, QString output,
                                   QString viewsJson, int timeoutMs)
    : QObject(window),
      window_(window),
      path_(std::move(path)),
      output_(std::move(output)),
      viewsJson_(std::move(viewsJson)),
      timeoutMs_(timeoutMs) {
  timer_ = new QTimer(this);
  timer_->setInterval(50);
  connect(timer_, &QTimer::timeout, this, &ScreenshotRunner::poll);
  connect(window_, &MainWindow::volumeShown, this, [this] { loaded_ = true; });
  connect(window_, &MainWindow::loadFailed, this,
          [this](const QString&) { finish(1, QString()); });  // already printed
}

void ScreenshotRunner::setMammography(QStringList paths, QString layout) {
  mammography_ = true;
  mammoPaths_ = std::move(paths);
  mammoLayout_ = std::move(layout);
  connect(window_->mammo(), &MammoFeature::failed, this,
          [this](const QString&) { finish(1, QString()); });  // already printed
}

void ScreenshotRunner::start() {
  clock_.start();
  if (mammography_) {
    const bool started = mammoPaths_.isEmpty() ? window_->mammo()->openSample(mammoLayout_)
                                               : window_->mammo()->open(mammoPaths_, mammoLayout_);
    if (!started) {
      finish(1, QString());
      return;
    }
  } else {
    window_->openPath(path_);
  }
  timer_->start();
}

void ScreenshotRunner::poll() {
  if (exitCode_ >= 0) {
    return;
  }
  if (clock_.elapsed() > timeoutMs_) {
    finish(3, QStringLiteral("timed out after %1 s waiting for %2 to load and render")
                  .arg(timeoutMs_ / 1000)
                  .arg(path_));
    return;
  }
  const bool ready = mammography_ ? window_->mammo()->settled()
                                  : loaded_ && window_->volume() && window_->editingSettled() &&
                                        window_->views()->allViewsRendered();
  // After a --show step, also until the job it started is over (its progress bar is gone).
  const auto working = [this] {
    const auto bars = window_->findChildren<QProgressBar*>();
    return std::any_of(bars.begin(), bars.end(), [](QProgressBar* b) { return b->isVisible(); });
  };
  if (!ready || (shownSteps_ > 0 && working())) {
    settledPolls_ = 0;
    return;
  }
  // One more round so late layout changes (status bar text, docks) are painted too; after a
  // --show step, half a second for the job it may have started.
  if (++settledPolls_ < (shownSteps_ == 0 ? 2 : 10)) {
    return;
  }
  if (shownSteps_ < show_.size()) {
    if (show_[shownSteps_].startsWith(QLatin1String("aiBox:")) &&
        !window_->editing()->ai()->connected()) {
      return;  // the backend is still connecting
    }
    if (applyShow(show_[shownSteps_++])) {
      settledPolls_ = 0;
    }
    return;
  }
  const QImage image = grabWindowAndDialogs(window_);
  if (image.isNull() || !image.save(output_, "PNG")) {
    finish(1, QStringLiteral("cannot write the screenshot %1").arg(output_));
    return;
  }
  if (!viewsJson_.isEmpty() && !writeViewsJson(window_, viewsJson_)) {
    finish(1, QStringLiteral("cannot write %1").arg(viewsJson_));
    return;
  }
  finish(0, QString());
}

QImage ScreenshotRunner::grabWindow(MainWindow* window) {
  const qreal dpr = window->devicePixelRatioF();
  QImage image = window->grab().toImage().convertToFormat(QImage::Format_RGB32);
  // Paint in device pixels: the grab carries the screen's ratio, which would scale again.
  image.setDevicePixelRatio(1);
  QPainter painter(&image);
  for (const NamedCanvas& c : shownCanvases(window)) {
    // QWidget::grab may or may not include GL content; the framebuffer is authoritative.
    const QImage frame = c.canvas->grabFramebuffer();
    const QPoint at = c.canvas->mapTo(window, QPoint(0, 0));
    painter.drawImage(
        QRectF(at.x() * dpr, at.y() * dpr, c.canvas->width() * dpr, c.canvas->height() * dpr),
        frame);
  }
  painter.end();
  return image;
}

bool ScreenshotRunner::applyShow(const QString& name) {
  if (name.startsWith(QLatin1String("aiBox:"))) {
    return applyAiBox(name.mid(6));
  }
  if (auto* dock = window_->findChild<QDockWidget*>(name)) {
    dock->show();
    dock->raise();
    return true;
  }
  if (QAction* action = window_->action(name)) {
    action->trigger();
    return true;
  }
  // A button of the window or of a dialog it opened, by its text (without the '&') or its name.
  for (QAbstractButton* button : window_->findChildren<QAbstractButton*>()) {
    if (button->isVisible() && button->isEnabled() &&
        (button->objectName() == name || button->text().remove(QLatin1Char('&')) == name)) {
      button->click();
      return true;
    }
  }
  // A page of a dialog's tabs (Preferences' "DICOM nodes"), by its title.
  for (QTabWidget* tabs : window_->findChildren<QTabWidget*>()) {
    for (int i = 0; tabs->isVisible() && i < tabs->count(); ++i) {
      if (tabs->tabText(i).remove(QLatin1Char('&')) == name) {
        tabs->setCurrentIndex(i);
        return true;
      }
    }
  }
  finish(
      2,
      QStringLiteral("--show %1: no panel, command, enabled button or tab of that name").arg(name));
  return false;
}

bool ScreenshotRunner::applyAiBox(const QString& corners) {
  // "i0,j0,k0,i1,j1,k1": corner voxels of the image, both inside; one slice thick.
  const QStringList parts = corners.split(QLatin1Char(','));
  std::size_t v[6] = {};
  bool ok = parts.size() == 6;
  for (int n = 0; ok && n < 6; ++n) {
    v[n] = parts[n].toULong(&ok);
  }
  const core::VolumePtr image = window_->volume();
  if (!ok || !image) {
    finish(2, QStringLiteral("--show aiBox:%1: needs i0,j0,k0,i1,j1,k1 on the image").arg(corners));
    return false;
  }
  core::ai::Prompt p;
  p.kind = core::ai::PromptKind::Box;
  for (int a = 0; a < 3; ++a) {
    p.box.lo[a] = std::min(v[a], v[a + 3]);
    p.box.hi[a] = std::max(v[a], v[a + 3]) + 1;
  }
  // The outline as drawn: the box's rectangle on its slice, through the voxels' outer edges.
  const core::ImageGeometry& g = image->geometry();
  const double k = double(p.box.lo[2]);
  const double i0 = double(p.box.lo[0]) - 0.5, i1 = double(p.box.hi[0]) - 0.5;
  const double j0 = double(p.box.lo[1]) - 0.5, j1 = double(p.box.hi[1]) - 0.5;
  annotation::AiInteraction::DrawnOutline drawn;
  drawn.closed = true;
  for (const auto& [i, j] : {std::pair{i0, j0}, {i1, j0}, {i1, j1}, {i0, j1}}) {
    drawn.points.push_back(g.indexToWorld({i, j, k}));
  }
  if (QAction* tool = window_->action(QStringLiteral("tool.aiBox"))) {
    tool->trigger();
  }
  window_->views()->state()->setCursor(g.indexToWorld({(i0 + i1) / 2, (j0 + j1) / 2, k}));
  if (!window_->editing()->ai()->prompt(p, drawn)) {
    finish(2, QStringLiteral("--show aiBox:%1: the AI backend refused the box").arg(corners));
    return false;
  }
  return true;
}

QImage ScreenshotRunner::grabWindowAndDialogs(MainWindow* window) {
  QImage image = grabWindow(window);
  const qreal dpr = window->devicePixelRatioF();
  QPainter painter(&image);
  for (QDialog* dialog : window->findChildren<QDialog*>()) {
    if (dialog->isVisible() && dialog->isWindow()) {
      const QPoint at = dialog->geometry().topLeft() - window->geometry().topLeft();
      QImage picture = dialog->grab().toImage();
      picture.setDevicePixelRatio(1);
      painter.drawImage(QPointF(at.x() * dpr, at.y() * dpr), picture);
    }
  }
  painter.end();
  return image;
}

bool ScreenshotRunner::writeViewsJson(MainWindow* window, const QString& file) const {
  const qreal dpr = window->devicePixelRatioF();
  QJsonArray views;
  if (mammography_) {
    viewers::MammoReadingView* reading = window->mammo()->view();
    for (int i = 0; i < reading->viewportCount(); ++i) {
      viewers::MammoViewport* v = reading->viewport(i);
      const QPoint at = v->mapTo(window, QPoint(0, 0));
      const bool wallLeft = v->wantedWall() == core::mammo::ChestWall::Left;
      views.append(
          QJsonObject{{"name", v->image() ? v->image()->title : QString()},
                      {"file", v->image() ? QString::fromStdString(v->image()->id) : QString()},
                      {"chestWall", wallLeft ? QStringLiteral("left") : QStringLiteral("right")},
                      {"mirrored", v->image() ? v->transform().mirror : false},
                      {"empty", v->image() ? QString() : v->emptyText()},
                      {"x", qRound(at.x() * dpr)},
                      {"y", qRound(at.y() * dpr)},
                      {"width", qRound(v->width() * dpr)},
                      {"height", qRound(v->height() * dpr)}});
    }
    QJsonArray notes;
    for (const QString& n : reading->notes()) {
      notes.append(n);
    }
    QJsonObject root{{"layout", window->mammo()->layoutId()}, {"views", views}, {"notes", notes}};
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
      return false;
    }
    out.write(QJsonDocument(root).toJson());
    return true;
  }
  for (const NamedCanvas& c : shownCanvases(window)) {
    const QPoint at = c.canvas->mapTo(window, QPoint(0, 0));
    views.append(QJsonObject{{"name", c.name},
                             {"x", qRound(at.x() * dpr)},
                             {"y", qRound(at.y() * dpr)},
                             {"width", qRound(c.canvas->width() * dpr)},
                             {"height", qRound(c.canvas->height() * dpr)}});
  }
  // The AI backend in use, as the AI panel shows it: which engine answers and what it offers.
  const AiController* ai = window->editing()->ai();
  const AiController::Backend& backend = ai->backends()[std::size_t(ai->backendIndex())];
  QJsonObject root{{"layout", window->views()->layoutName()},
                   {"views", views},
                   {"ai", QJsonObject{{"backend", backend.name},
                                      {"plugin", backend.kind},
                                      {"status", backend.status},
                                      {"models", QJsonArray::fromStringList(ai->models())}}}};
  QFile out(file);
  if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
    return false;
  }
  out.write(QJsonDocument(root).toJson());
  return true;
}

void ScreenshotRunner::finish(int code, const QString& message) {
  if (exitCode_ >= 0) {
    return;
  }
  exitCode_ = code;
  timer_->stop();
  if (!message.isEmpty()) {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
  QCoreApplication::exit(code);
}

}  // namespace delineate::app
