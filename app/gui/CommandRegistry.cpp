#include "app/gui/CommandRegistry.h"

#include <QAction>
#include <QWidget>

namespace delineate::app {

CommandRegistry::CommandRegistry(QWidget* window) : QObject(window), window_(window) {}

QAction* CommandRegistry::add(const QString& id, const QString& text,
                              const QKeySequence& shortcut) {
  return add(id, text, shortcut.isEmpty() ? QList<QKeySequence>{} : QList{shortcut});
}

QAction* CommandRegistry::add(const QString& id, const QString& text,
                              const QList<QKeySequence>& shortcuts) {
  remove(id);
  auto* a = new QAction(text, window_);
  a->setObjectName(id);
  a->setData(id);
  a->setShortcuts(shortcuts);
  window_->addAction(a);
  actions_.insert(id, a);
  return a;
}

void CommandRegistry::remove(const QString& id) {
  delete actions_.take(id);
}

}  // namespace delineate::app
