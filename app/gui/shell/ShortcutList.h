#pragma once
// What Help > Keyboard shortcuts lists: every command of the window with its shortcuts, grouped by
// the first part of its id ("edit.undo" -> Edit), sorted by group and text; commands without a
// shortcut are listed too (so that a user can see what has none).
#include <QString>
#include <QStringList>
#include <vector>

namespace delineate::app {

class CommandRegistry;

struct ShortcutRow {
  QString group;     // "Edit", "View", "Tools", ...
  QString command;   // the action's text without '&' and "…"
  QString id;        // "edit.undo"
  QStringList keys;  // native text of each shortcut ("Ctrl+Z"); empty: none
};

std::vector<ShortcutRow> shortcutRows(const CommandRegistry& commands);
// The group a command id belongs to, as the menus name it.
QString shortcutGroup(const QString& id);

}  // namespace delineate::app
