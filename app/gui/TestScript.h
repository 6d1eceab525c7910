#pragma once
// Test-only hook: DELINEATE_TEST_SCRIPT=FILE.json scripts brush strokes through the real event
// path (synthesized mouse events on a slice view's canvas -> ToolEventRouter -> tool) once the
// first image is shown, then prints "delineate: test script done" on stdout. Used by the
// kill-and-recover test; it does nothing unless the variable is set. With "dump", the label map
// as painted is also written there (for the test to compare with what it recovers).
//
//   {"tool": "tool.brush", "radiusMm": 4, "sphere": false,
//    "strokes": [{"view": "axial", "voxels": [[40, 50, 20], [60, 50, 20]]}],
//    "dump": "/tmp/painted.nii.gz"}
#include <QJsonObject>
#include <QObject>

class QTimer;

namespace delineate::app {

class MainWindow;

class TestScript : public QObject {
  Q_OBJECT

 public:
  // The script named by DELINEATE_TEST_SCRIPT, or null when the variable is unset.
  static TestScript* fromEnvironment(MainWindow* window);

 private:
  TestScript(MainWindow* window, QJsonObject script);
  void poll();
  void run();

  MainWindow* window_;
  QJsonObject script_;
  QTimer* timer_;
  bool done_ = false;
};

}  // namespace delineate::app
