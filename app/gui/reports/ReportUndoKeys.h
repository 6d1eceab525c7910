#pragma once
// Ctrl+Z / Ctrl+Shift+Z (the platform's Undo and Redo keys) for a report dock while it or one of
// its children has the focus: an event filter on the dock's widget that claims the keys before
// the window's shortcuts (Edit > Undo of the segmentation) and calls the dock's undo or redo.
// A text editor with the focus keeps them for its own text.
#include <QObject>
#include <functional>

class QWidget;

namespace delineate::app {

class ReportUndoKeys : public QObject {
  Q_OBJECT

 public:
  ReportUndoKeys(QWidget* panel, std::function<void()> undo, std::function<void()> redo);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  std::function<void()> undo_, redo_;
};

}  // namespace delineate::app
