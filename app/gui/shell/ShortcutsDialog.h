#pragma once
// Help > Keyboard shortcuts: every command and its keys in a tree grouped like the menus, with a
// filter on command text and key ("brush", "Ctrl+Z"), and the slice views' mouse bindings.
#include <QDialog>

class QLineEdit;
class QTreeWidget;

namespace delineate::app {

class CommandRegistry;

class ShortcutsDialog : public QDialog {
  Q_OBJECT

 public:
  ShortcutsDialog(const CommandRegistry* commands, QWidget* parent = nullptr);

  // Fills the tree again (commands may have been added since).
  void refresh();
  void setFilter(const QString& text);
  QTreeWidget* tree() const { return tree_; }
  QLineEdit* filterEdit() const { return filter_; }
  // The shown (not filtered out) command rows.
  int visibleCommandCount() const;

 private:
  const CommandRegistry* commands_;
  QLineEdit* filter_;
  QTreeWidget* tree_;
};

}  // namespace delineate::app
