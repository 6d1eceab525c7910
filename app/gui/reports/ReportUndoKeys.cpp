#include "app/gui/reports/ReportUndoKeys.h"

#include <QEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QWidget>

namespace delineate::app {

ReportUndoKeys::ReportUndoKeys(QWidget* panel, std::function<void()> undo,
                               std::function<void()> redo)
    : QObject(panel), undo_(std::move(undo)), redo_(std::move(redo)) {
  panel->installEventFilter(this);
}

bool ReportUndoKeys::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress) {
    return QObject::eventFilter(watched, event);
  }
  auto* key = static_cast<QKeyEvent*>(event);
  const bool undo = key->matches(QKeySequence::Undo);
  // Ctrl+Y too: Edit > Redo answers to it on every platform, and must not redo a segmentation
  // edit while the report has the focus.
  const bool redo =
      !undo && (key->matches(QKeySequence::Redo) ||
                key->keyCombination() == QKeyCombination(Qt::ControlModifier, Qt::Key_Y));
  if (!undo && !redo) {
    return QObject::eventFilter(watched, event);
  }
  key->accept();
  if (type == QEvent::KeyPress) {
    (undo ? undo_ : redo_)();
  }
  return true;
}

}  // namespace delineate::app
