#include "app/gui/ai/LabelMappingDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace delineate::app {

namespace {

constexpr int kFirstSegment = 3;  // combo index of the first segment (after Default, New, Skip)

}  // namespace

LabelMappingDialog::LabelMappingDialog(const QString& model, const std::vector<std::string>& labels,
                                       const std::vector<std::string>& segments,
                                       const annotation::LabelRules& rules, QWidget* parent)
    : QDialog(parent), labels_(labels), segments_(segments) {
  setWindowTitle(tr("Labels of %1").arg(model));
  auto* intro = new QLabel(tr("Where Accept puts each label of <b>%1</b>'s proposals in the active "
                              "label map. Kept for this model.")
                               .arg(model.toHtmlEscaped()),
                           this);
  intro->setWordWrap(true);
  table_ = new QTableWidget(int(labels.size()), 2, this);
  table_->setHorizontalHeaderLabels({tr("AI label"), tr("Goes to")});
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
  for (int row = 0; row < int(labels.size()); ++row) {
    auto* name = new QTableWidgetItem(QString::fromStdString(labels[std::size_t(row)]));
    name->setFlags(Qt::ItemIsEnabled);
    table_->setItem(row, 0, name);
    auto* combo = new QComboBox(table_);
    combo->addItem(tr("Segment of the same name (one structure: the active segment)"));
    combo->addItem(tr("A new segment"));
    combo->addItem(tr("Skip"));
    for (const std::string& s : segments) {
      combo->addItem(tr("Segment \u201c%1\u201d").arg(QString::fromStdString(s)));
    }
    const auto rule = rules.find(labels[std::size_t(row)]);
    if (rule != rules.end()) {
      using Kind = annotation::LabelRule::Kind;
      switch (rule->second.kind) {
        case Kind::NewSegment:
          combo->setCurrentIndex(1);
          break;
        case Kind::Skip:
          combo->setCurrentIndex(2);
          break;
        case Kind::Segment: {
          const auto it = std::find(segments.begin(), segments.end(), rule->second.segment);
          combo->setCurrentIndex(it == segments.end() ? 0
                                                      : kFirstSegment + int(it - segments.begin()));
          break;
        }
        case Kind::Default:
          break;
      }
    }
    table_->setCellWidget(row, 1, combo);
  }
  table_->resizeColumnToContents(0);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addWidget(table_, 1);
  layout->addWidget(buttons);
  resize(560, 120 + 34 * int(labels.size()));
}

QComboBox* LabelMappingDialog::choice(int row) const {
  return qobject_cast<QComboBox*>(table_->cellWidget(row, 1));
}

annotation::LabelRules LabelMappingDialog::rules() const {
  annotation::LabelRules out;
  using Kind = annotation::LabelRule::Kind;
  for (int row = 0; row < int(labels_.size()); ++row) {
    const int index = choice(row)->currentIndex();
    annotation::LabelRule r;
    if (index == 1) {
      r.kind = Kind::NewSegment;
    } else if (index == 2) {
      r.kind = Kind::Skip;
    } else if (index >= kFirstSegment) {
      r.kind = Kind::Segment;
      r.segment = segments_[std::size_t(index - kFirstSegment)];
    }
    if (r.kind != Kind::Default) {
      out[labels_[std::size_t(row)]] = r;
    }
  }
  return out;
}

}  // namespace delineate::app
