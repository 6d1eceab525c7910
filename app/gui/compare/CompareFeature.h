#pragma once
// The compare view in the workstation window: the CompareController, its dock (on the right,
// hidden until asked for) and its commands — "analysis.compare" opens the dock,
// "analysis.nextWorstSlice" (N) and "analysis.previousWorstSlice" (Shift+N) step through the
// slices worst Dice first; "analysis.addAcceptedProposal" adds the AI proposals accepted into the
// active map as a label map of their own and compares the corrected map with it. MainWindow owns
// one.
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
  // The active map's accepted AI proposals as a new label map ("<map> AI proposal"), built in a
  // job, then compared with the active map (reference: the corrected map); false with a message
  // in the dock when no proposal was accepted into the active map.
  bool addAcceptedProposal();

 Q_SIGNALS:
  void acceptedProposalAdded();

 private:
  EditingFeature* editing_;
  CommandRegistry* commands_;
  CompareController* controller_;
  CompareDock* panel_;
  QDockWidget* dock_;
};

}  // namespace delineate::app
