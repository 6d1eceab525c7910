// Help > Keyboard shortcuts in the real window: every command is listed under its menu's group
// with the keys that trigger it (the same the actions answer to), the filter finds commands by
// text and by key, the slice views' mouse and keys are listed, and no key is bound to two
// commands.
#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QLineEdit>
#include <QTreeWidget>
#include <map>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "app/gui/MainWindow.h"
#include "app/gui/shell/ShortcutsDialog.h"

using namespace delineate;

namespace {

class ShortcutsDialogTest : public test::EditingWindowTest {
 protected:
  app::ShortcutsDialog* open() {
    window_->action(QStringLiteral("help.shortcuts"))->trigger();
    app::ShortcutsDialog* d = window_->shortcutsDialog();
    EXPECT_NE(d, nullptr);
    EXPECT_TRUE(d && d->isVisible());
    return d;
  }

  // The row of command text `text` under group `group`, or null.
  static QTreeWidgetItem* row(QTreeWidget* tree, const QString& group, const QString& text) {
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
      QTreeWidgetItem* item = tree->topLevelItem(g);
      if (item->text(0) != group) {
        continue;
      }
      for (int i = 0; i < item->childCount(); ++i) {
        if (item->child(i)->text(0) == text) {
          return item->child(i);
        }
      }
    }
    return nullptr;
  }
};

}  // namespace

TEST_F(ShortcutsDialogTest, ListsEveryCommandWithTheKeysItsActionAnswersTo) {
  app::ShortcutsDialog* d = open();
  ASSERT_NE(d, nullptr);
  const QTreeWidgetItem* undo = row(d->tree(), QStringLiteral("Edit"), QStringLiteral("Undo"));
  ASSERT_NE(undo, nullptr);
  EXPECT_EQ(undo->text(1), QStringLiteral("Ctrl+Z"));
  const QTreeWidgetItem* redo = row(d->tree(), QStringLiteral("Edit"), QStringLiteral("Redo"));
  ASSERT_NE(redo, nullptr);
  EXPECT_TRUE(redo->text(1).contains(QStringLiteral("Ctrl+Y"))) << redo->text(1).toStdString();
  const QTreeWidgetItem* brush = row(d->tree(), QStringLiteral("Tools"), QStringLiteral("Brush"));
  ASSERT_NE(brush, nullptr);
  EXPECT_EQ(
      brush->text(1),
      window_->action(QStringLiteral("tool.brush"))->shortcut().toString(QKeySequence::NativeText));
  EXPECT_NE(row(d->tree(), QStringLiteral("Slice views (mouse and keys)"),
                QStringLiteral("Window / level")),
            nullptr);
  // Every command of the window, once, and the views' own bindings.
  int views = 0;
  for (int g = 0; g < d->tree()->topLevelItemCount(); ++g) {
    const QTreeWidgetItem* group = d->tree()->topLevelItem(g);
    views += group->text(0).startsWith(QStringLiteral("Slice views")) ? group->childCount() : 0;
  }
  EXPECT_GE(views, 8);
  EXPECT_EQ(d->visibleCommandCount(), window_->commandIds().size() + views);
  const QByteArray tmp = qgetenv("DELINEATE_TEST_TMP");
  if (!tmp.isEmpty() && QDir().mkpath(QString::fromLocal8Bit(tmp))) {
    d->grab().save(QString::fromLocal8Bit(tmp) + QStringLiteral("/shortcuts-dialog.png"));
  }
}

TEST_F(ShortcutsDialogTest, TheFilterFindsCommandsByTextAndByKey) {
  app::ShortcutsDialog* d = open();
  ASSERT_NE(d, nullptr);
  d->filterEdit()->setText(QStringLiteral("brush"));
  const int brushes = d->visibleCommandCount();
  EXPECT_GE(brushes, 3) << "Brush, Smaller brush, Larger brush";
  EXPECT_LT(brushes, 10);
  EXPECT_EQ(row(d->tree(), QStringLiteral("Edit"), QStringLiteral("Undo"))->isHidden(), true);
  d->filterEdit()->setText(QStringLiteral("Ctrl+Z"));
  EXPECT_FALSE(row(d->tree(), QStringLiteral("Edit"), QStringLiteral("Undo"))->isHidden());
  d->filterEdit()->clear();
  EXPECT_GT(d->visibleCommandCount(), brushes);
}

TEST_F(ShortcutsDialogTest, NoKeyTriggersTwoCommands) {
  std::map<QString, QStringList> byKey;
  for (const QString& id : window_->commandIds()) {
    for (const QKeySequence& key : window_->action(id)->shortcuts()) {
      byKey[key.toString()] << id;
    }
  }
  for (const auto& [key, ids] : byKey) {
    EXPECT_EQ(ids.size(), 1) << key.toStdString() << ": "
                             << ids.join(QLatin1Char(' ')).toStdString();
  }
  EXPECT_TRUE(byKey.count(QKeySequence(QKeySequence::HelpContents).toString()))
      << "Help > Keyboard shortcuts has the platform's help key";
}
