#pragma once
// The window's commands by id ("edit.undo", "tool.brush", "view.layout.2x2"): menus, tool bars
// and shortcuts bind to these actions. Every action is also added to the window, so that its
// shortcut works whether or not a menu or tool bar shows it.
#include <QHash>
#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

class QAction;
class QWidget;

namespace delineate::app {

class CommandRegistry : public QObject {
  Q_OBJECT

 public:
  explicit CommandRegistry(QWidget* window);

  QAction* add(const QString& id, const QString& text, const QKeySequence& shortcut = {});
  QAction* add(const QString& id, const QString& text, const QList<QKeySequence>& shortcuts);
  QAction* action(const QString& id) const { return actions_.value(id, nullptr); }
  QStringList ids() const { return actions_.keys(); }
  // Removes and deletes the action.
  void remove(const QString& id);

 private:
  QWidget* window_;
  QHash<QString, QAction*> actions_;
};

}  // namespace delineate::app
