#pragma once
// The annotator loop in the workstation window: the AnnotatorLoop, its dock (on the right,
// hidden until asked for) and its commands in the AI menu — "ai.nextSample" (Ctrl+Shift+N),
// "ai.submitLabel" (Ctrl+Shift+U) and "ai.training" (Ctrl+Shift+T: the dock, with training). The
// server's training status is polled only while the dock is visible. MainWindow owns one.
#include <QObject>

class QDockWidget;
class QMenu;

namespace delineate::app {

class AnnotatorLoop;
class AnnotatorLoopDock;
class CommandRegistry;
class MainWindow;

class AnnotatorLoopFeature : public QObject {
  Q_OBJECT

 public:
  AnnotatorLoopFeature(MainWindow* window, CommandRegistry* commands);
  ~AnnotatorLoopFeature() override;

  void populateMenu(QMenu* menu);
  AnnotatorLoop* loop() const { return loop_; }
  AnnotatorLoopDock* panel() const { return panel_; }
  QDockWidget* dock() const { return dock_; }
  // Shows and raises the dock.
  void show();

 private:
  CommandRegistry* commands_;
  AnnotatorLoop* loop_;
  AnnotatorLoopDock* panel_;
  QDockWidget* dock_;
};

}  // namespace delineate::app
