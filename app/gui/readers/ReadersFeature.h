#pragma once
// The readers view in the workstation window: the ReadersController, its dock (on the right,
// hidden until asked for) and its commands: "review.readers" (Ctrl+Shift+R) opens the dock,
// "review.nextDisagreement" (J) and "review.previousDisagreement" (Shift+J) step through the
// disagreement regions, "review.sideBySide" shows the readers side by side in a dock below the
// views (ReadersSideBySide). MainWindow owns one.
#include <QObject>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace delineate::viewers {
class ViewLayout;
}

namespace delineate::app {

class CommandRegistry;
class EditingFeature;
class ReadersController;
class ReadersDock;
class ReadersSideBySide;

class ReadersFeature : public QObject {
  Q_OBJECT

 public:
  ReadersFeature(QMainWindow* window, CommandRegistry* commands, viewers::ViewLayout* views,
                 EditingFeature* editing);
  ~ReadersFeature() override;

  void populateMenu(QMenu* menu);
  QDockWidget* dock() const { return dock_; }
  ReadersDock* panel() const { return panel_; }
  ReadersController* controller() const { return controller_; }
  QDockWidget* sideBySideDock() const { return sideDock_; }
  ReadersSideBySide* sideBySide() const { return side_; }
  void show();

 private:
  CommandRegistry* commands_;
  ReadersController* controller_;
  ReadersDock* panel_;
  QDockWidget* dock_;
  ReadersSideBySide* side_;
  QDockWidget* sideDock_;
};

}  // namespace delineate::app
