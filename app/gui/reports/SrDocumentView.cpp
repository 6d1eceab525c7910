// The read-only structured report view.
#include "app/gui/reports/SrDocumentView.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace delineate::app {

namespace cr = core::report;

namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

QString conceptText(const core::CodedConcept& c) {
  if (c.meaning.empty() && c.value.empty()) {
    return {};
  }
  return c.value.empty() ? q(c.meaning)
                         : QStringLiteral("%1 (%2, %3)").arg(q(c.meaning), q(c.value), q(c.scheme));
}

}  // namespace

SrDocumentView::SrDocumentView(const cr::SrDocument& document, const QString& file, QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Structured report (read-only): %1").arg(q(document.title)));
  setObjectName(QStringLiteral("srDocumentView"));
  auto* layout = new QVBoxLayout(this);

  header_ = new QLabel(this);
  header_->setObjectName(QStringLiteral("srHeader"));
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QStringList lines;
  lines << tr("<b>%1</b> — %2")
               .arg(q(document.title).toHtmlEscaped(),
                    QString::fromUtf8(cr::toString(document.kind)));
  lines << tr("File: %1").arg(file.toHtmlEscaped());
  lines << tr("%1; %2, %3")
               .arg(q(document.sopClassName.empty() ? document.sopClassUid : document.sopClassName)
                        .toHtmlEscaped(),
                    document.complete ? tr("complete") : tr("partial"),
                    document.verified ? tr("verified") : tr("unverified"));
  if (!document.observer.empty()) {
    lines << tr("Observer: %1").arg(q(document.observer).toHtmlEscaped());
  }
  if (!document.manufacturer.empty()) {
    lines << tr("Written by: %1").arg(q(document.manufacturer).toHtmlEscaped());
  }
  lines << tr("Patient: %1; study %2")
               .arg(q(document.patientName).toHtmlEscaped(), q(document.studyInstanceUid));
  header_->setText(lines.join(QStringLiteral("<br>")));
  layout->addWidget(header_);

  banner_ = new QLabel(this);
  banner_->setObjectName(QStringLiteral("srBanner"));
  banner_->setWordWrap(true);
  if (document.kind == cr::SrKind::Foreign) {
    QString text =
        tr("This report comes from another system. It is shown read-only: %n content "
           "item(s) as read.",
           "", int(document.itemCount));
    for (const std::string& line : document.notShown) {
      text += QStringLiteral("\n• ") + q(line);
    }
    banner_->setText(text);
    banner_->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 6px; }"));
  } else {
    banner_->setText(
        tr("Written by this program; shown read-only. Open its report file (JSON) "
           "to edit it."));
  }
  layout->addWidget(banner_);

  tree_ = new QTreeWidget(this);
  tree_->setObjectName(QStringLiteral("srTree"));
  tree_->setHeaderLabels({tr("Concept"), tr("Value"), tr("Relationship"), tr("Type")});
  tree_->setAlternatingRowColors(true);
  auto* root = new QTreeWidgetItem(tree_);
  root->setText(0, conceptText(document.root.name));
  root->setText(3, q(document.root.valueType));
  for (const cr::SrNode& child : document.root.children) {
    addNode(root, child, 1);
  }
  root->setExpanded(true);
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->header()->setSectionResizeMode(1, QHeaderView::Stretch);
  layout->addWidget(tree_, 1);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(900, 640);
}

void SrDocumentView::addNode(QTreeWidgetItem* parent, const cr::SrNode& node, int depth) {
  auto* item = new QTreeWidgetItem(parent);
  item->setText(0, conceptText(node.name));
  item->setText(1, q(node.value));
  item->setToolTip(1, q(node.value));
  item->setText(2, q(node.relationship));
  item->setText(3, q(node.valueType));
  for (const cr::SrNode& child : node.children) {
    addNode(item, child, depth + 1);
  }
  item->setExpanded(depth < 3);
}

}  // namespace delineate::app
