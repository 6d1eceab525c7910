#include "app/gui/shell/ShortcutList.h"

#include <QAction>
#include <QKeySequence>
#include <algorithm>

#include "app/gui/CommandRegistry.h"

namespace delineate::app {

QString shortcutGroup(const QString& id) {
  const QString head = id.section(QLatin1Char('.'), 0, 0);
  if (head == QLatin1String("file"))
    return QObject::tr("File");
  if (head == QLatin1String("edit"))
    return QObject::tr("Edit");
  if (head == QLatin1String("view"))
    return QObject::tr("View");
  if (head == QLatin1String("tool"))
    return QObject::tr("Tools");
  if (head == QLatin1String("segment"))
    return QObject::tr("Segment");
  if (head == QLatin1String("analysis"))
    return QObject::tr("Analysis");
  if (head == QLatin1String("ai"))
    return QObject::tr("AI");
  if (head == QLatin1String("mammo"))
    return QObject::tr("Mammography");
  if (head == QLatin1String("report"))
    return QObject::tr("Report");
  if (head == QLatin1String("help"))
    return QObject::tr("Help");
  return QObject::tr("Other");
}

std::vector<ShortcutRow> shortcutRows(const CommandRegistry& commands) {
  std::vector<ShortcutRow> rows;
  for (const QString& id : commands.ids()) {
    const QAction* action = commands.action(id);
    if (action == nullptr) {
      continue;
    }
    ShortcutRow row;
    row.id = id;
    row.group = shortcutGroup(id);
    row.command = action->text().remove(QLatin1Char('&')).remove(QChar(0x2026)).trimmed();
    for (const QKeySequence& key : action->shortcuts()) {
      if (!key.isEmpty()) {
        row.keys << key.toString(QKeySequence::NativeText);
      }
    }
    rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end(), [](const ShortcutRow& a, const ShortcutRow& b) {
    return a.group != b.group ? a.group < b.group
                              : QString::localeAwareCompare(a.command, b.command) < 0;
  });
  return rows;
}

}  // namespace delineate::app
