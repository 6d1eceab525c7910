#pragma once
// The compare view in the workstation window: the CompareController, its dock (on the right,
// hidden until asked for) and its commands — "analysis.compare" opens the dock,
// "analysis.nextWorstSlice" (N) and "analysis.previousWorstSlice" (Shift+N) step through the
// slices worst Dice first. MainWindow owns one.
#include <QObject>
#include <QString>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace delineate::viewers {
class ViewLayout;
}

namespace delineate::app {

class CommandRegistry;
class CompareController;
class CompareDock;
class EditingFeature;

class CompareFeature : public QObject {
  Q_OBJECT

 public:
  CompareFeature(QMainWindow* window, CommandRegistry* commands, viewers::ViewLayout* views,
                 EditingFeature* editing, bool interactive);
  ~CompareFeature() override;

  void populateMenu(QMenu* menu);
  QDockWidget* dock() const { return dock_; }
  CompareDock* panel() const { return panel_; }
  CompareController* controller() const { return controller_; }
  // Shows and raises the dock.
  void show();

 private:
  CommandRegistry* commands_;
  CompareController* controller_;
  CompareDock* panel_;
  QDockWidget* dock_;
};

}  // namespace delineate::app
