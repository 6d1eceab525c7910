#pragma once
// `delineate --screenshot FILE PATH`: opens PATH in the window, waits until the load finished,
// label maps (--labels, --recover) are installed, surfaces and measurements are done and every
// shown view rendered them, grabs the window (VTK canvases composited from
// their framebuffers), writes the PNG and quits with 0; on a load error it prints the message to
// stderr and quits with 1.
#include <QElapsedTimer>
#include <QImage>
#include <QObject>
#include <QString>
#include <QStringList>

class QTimer;

namespace delineate::app {

class MainWindow;

class ScreenshotRunner : public QObject {
  Q_OBJECT

 public:
  ScreenshotRunner(MainWindow* window, QString path, QString output, QString viewsJson = {},
                   int timeoutMs = 180000);
  // Mammography instead: the study under `paths` (empty: the built-in sample study and prior)
  // in the reading view, hung by `layout`; waits until every image is at full quality.
  void setMammography(QStringList paths, QString layout);
  // Once PATH is shown, one step after another (each given half a second to settle): raise a
  // dock (object name), trigger a command (id) or click an enabled button (text or object name);
  // an unknown name fails the screenshot (exit code 2). Dialogs they open are drawn over the
  // window where they stand.
  void setShow(QStringList names) { show_ = std::move(names); }
  void start();
  int exitCode() const { return exitCode_; }

  // The window as shown, with each VTK canvas' framebuffer painted over its place.
  static QImage grabWindow(MainWindow* window);
  // grabWindow with the window's visible dialogs drawn over it at their places.
  static QImage grabWindowAndDialogs(MainWindow* window);

 private:
  void poll();
  bool applyShow(const QString& name);
  // "--show aiBox:i0,j0,k0,i1,j1,k1": the AI box tool's prompt over those voxels, run by the
  // current AI backend; its proposal shows in the screenshot.
  bool applyAiBox(const QString& corners);
  void finish(int code, const QString& message);
  bool writeViewsJson(MainWindow* window, const QString& file) const;

  MainWindow* window_;
  QString path_;
  QString output_;
  QString viewsJson_;
  int timeoutMs_;
  QTimer* timer_ = nullptr;
  QElapsedTimer clock_;
  bool loaded_ = false;
  bool mammography_ = false;
  QStringList mammoPaths_;
  QString mammoLayout_;
  int settledPolls_ = 0;
  QStringList show_;
  qsizetype shownSteps_ = 0;
  int exitCode_ = -1;
};

}  // namespace delineate::app
