#include "app/gui/shell/ShortcutsDialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "app/gui/shell/ShortcutList.h"

namespace delineate::app {

namespace {

constexpr int kCommandRole = Qt::UserRole + 1;

// The slice views' own keys and mouse (viewers/SliceView.cpp), which are not commands.
struct ViewBinding {
  const char* what;
  const char* keys;
};
constexpr ViewBinding kViewBindings[] = {
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Next / previous slice"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Mouse wheel, Up/Down or Right/Left")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Ten slices on / back"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Page Up / Page Down")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "First / last slice"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Home / End")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Reset this view"), "R"},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Move the crosshair"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Left drag (Navigate tool)")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Window / level"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Shift + left drag")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Pan"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Middle drag, or Ctrl + left drag")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Zoom"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Right drag, or Ctrl + mouse wheel")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Maximise a view / back"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Double-click")},
};

}  // namespace

ShortcutsDialog::ShortcutsDialog(const CommandRegistry* commands, QWidget* parent)
    : QDialog(parent), commands_(commands) {
  setObjectName(QStringLiteral("shortcutsDialog"));
  setWindowTitle(tr("Keyboard shortcuts"));
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter by command or key, e.g. brush or Ctrl+Z"));
  filter_->setClearButtonEnabled(true);
  tree_ = new QTreeWidget(this);
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Command"), tr("Keys")});
  tree_->setRootIsDecorated(true);
  tree_->setUniformRowHeights(true);
  tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  auto* note = new QLabel(
      tr("A slice view's own keys work in the view that has the focus (click it first). The "
         "mammography reading view's keys are shown in brackets in its commands' names."),
      this);
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(filter_);
  layout->addWidget(tree_, 1);
  layout->addWidget(note);
  layout->addWidget(buttons);
  resize(620, 640);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);
  connect(filter_, &QLineEdit::textChanged, this, &ShortcutsDialog::setFilter);
  refresh();
}

void ShortcutsDialog::refresh() {
  tree_->clear();
  QMap<QString, QTreeWidgetItem*> groups;
  auto group = [&](const QString& name) {
    QTreeWidgetItem*& g = groups[name];
    if (g == nullptr) {
      g = new QTreeWidgetItem(tree_, {name});
      QFont bold = g->font(0);
      bold.setBold(true);
      g->setFont(0, bold);
      g->setFirstColumnSpanned(true);
    }
    return g;
  };
  for (const ShortcutRow& row : shortcutRows(*commands_)) {
    auto* item =
        new QTreeWidgetItem(group(row.group), {row.command, row.keys.join(QStringLiteral(", "))});
    item->setData(0, kCommandRole, row.id);
    item->setToolTip(0, row.id);
  }
  QTreeWidgetItem* views = group(tr("Slice views (mouse and keys)"));
  for (const ViewBinding& b : kViewBindings) {
    auto* item = new QTreeWidgetItem(views, {tr(b.what), tr(b.keys)});
    item->setData(0, kCommandRole, QStringLiteral("view"));
  }
  tree_->expandAll();
  setFilter(filter_->text());
}

void ShortcutsDialog::setFilter(const QString& text) {
  if (filter_->text() != text) {
    filter_->setText(text);  // calls back here
    return;
  }
  const QString needle = text.trimmed();
  for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
    QTreeWidgetItem* group = tree_->topLevelItem(g);
    int shown = 0;
    for (int i = 0; i < group->childCount(); ++i) {
      QTreeWidgetItem* item = group->child(i);
      const bool match = needle.isEmpty() || item->text(0).contains(needle, Qt::CaseInsensitive) ||
                         item->text(1).contains(needle, Qt::CaseInsensitive);
      item->setHidden(!match);
      shown += match ? 1 : 0;
    }
    group->setHidden(shown == 0);
  }
}

int ShortcutsDialog::visibleCommandCount() const {
  int n = 0;
  for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
    const QTreeWidgetItem* group = tree_->topLevelItem(g);
    for (int i = 0; i < group->childCount(); ++i) {
      n += group->isHidden() || group->child(i)->isHidden() ? 0 : 1;
    }
  }
  return n;
}

}  // namespace delineate::app
