#include "app/gui/mammo/MammoReportFields.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "app/gui/reports/ReportCombos.h"

namespace delineate::app {

namespace cr = core::report;

namespace {

QColor provenanceColour(cr::Provenance p) {
  switch (p) {
    case cr::Provenance::AiProposed:
      return {255, 200, 90};
    case cr::Provenance::AcceptedUnchanged:
      return {120, 200, 255};
    case cr::Provenance::Edited:
      return {255, 140, 140};
    case cr::Provenance::Manual:
      break;
  }
  return {200, 200, 200};
}

}  // namespace

MammoReportFields::MammoReportFields(Change change, QWidget* parent)
    : QWidget(parent), change_(std::move(change)) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  fields_ = new QTreeWidget(this);
  fields_->setColumnCount(4);
  fields_->setHeaderLabels({tr("Field"), tr("Value"), tr("AI value"), tr("Provenance")});
  fields_->setRootIsDecorated(false);
  fields_->header()->setSectionResizeMode(QHeaderView::Interactive);
  fields_->setColumnWidth(0, 175);
  fields_->setColumnWidth(1, 95);
  fields_->setColumnWidth(2, 85);
  fields_->setTextElideMode(Qt::ElideMiddle);
  column->addWidget(fields_, 1);
  auto* form = new QFormLayout;
  composition_ = new QComboBox(this);
  fillReportCombo<cr::BreastComposition>(composition_);
  assessment_ = new QComboBox(this);
  fillReportCombo<cr::AssessmentCategory>(assessment_);
  impression_ = new QPlainTextEdit(this);
  impression_->setMaximumHeight(60);
  for (QComboBox* c : {composition_, assessment_}) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(10);
  }
  apply_ = new QPushButton(tr("Apply"), this);
  auto* assessmentRow = new QHBoxLayout;
  assessmentRow->addWidget(assessment_, 1);
  assessmentRow->addWidget(apply_);
  form->addRow(tr("Composition"), composition_);
  form->addRow(tr("Assessment"), assessmentRow);
  form->addRow(tr("Impression"), impression_);
  column->addLayout(form);
  connect(fields_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    const QString path = item ? item->text(0) : QString();
    if (path.startsWith(QStringLiteral("findings/F"))) {
      Q_EMIT findingActivated(path.section(QLatin1Char('/'), 1, 1).mid(1).toInt());
    }
  });
  connect(apply_, &QPushButton::clicked, this, [this] {
    const auto c = reportComboValue<cr::BreastComposition>(composition_);
    const auto a = reportComboValue<cr::AssessmentCategory>(assessment_);
    const std::string text = impression_->toPlainText().toStdString();
    change_([&](cr::MammographyContent& content) {
      if (c && content.composition.value() != c) {
        content.composition.set(*c);
      }
      if (a && content.assessmentOverall.value() != a) {
        content.assessmentOverall.set(*a);
      }
      if (content.impression.value().value_or(std::string()) != text) {
        content.impression.set(text);
      }
    });
  });
}

void MammoReportFields::showReport(const cr::MammographyReport* report, bool aiShown,
                                   bool editable) {
  for (QWidget* w :
       std::initializer_list<QWidget*>{composition_, assessment_, impression_, apply_}) {
    w->setEnabled(editable);
  }
  const QSignalBlocker block(fields_);
  const QString current = fields_->currentItem() ? fields_->currentItem()->text(0) : QString();
  fields_->clear();
  if (report == nullptr || !aiShown) {
    if (report != nullptr) {
      auto* item = new QTreeWidgetItem(fields_);
      item->setText(0, tr("(the AI's values are hidden until you reveal them)"));
      item->setFirstColumnSpanned(true);
    }
    setReportCombo<cr::BreastComposition>(composition_, std::nullopt);
    setReportCombo<cr::AssessmentCategory>(assessment_, std::nullopt);
    impression_->clear();
    return;
  }
  const cr::MammographyContent& content = report->content();
  for (const cr::FieldEntry& e : cr::listFields(content)) {
    auto* item = new QTreeWidgetItem(fields_);
    item->setText(0, QString::fromStdString(e.path));
    item->setText(1, QString::fromStdString(e.value));
    item->setText(2, e.aiValue ? QString::fromStdString(*e.aiValue) : QString());
    item->setText(3, QString::fromLatin1(cr::nameOf(e.provenance)));
    item->setBackground(3, provenanceColour(e.provenance));
    item->setForeground(3, Qt::black);
    if (item->text(0) == current) {
      fields_->setCurrentItem(item);
    }
  }
  setReportCombo(composition_, content.composition.value());
  setReportCombo(assessment_, content.assessmentOverall.value());
  impression_->setPlainText(QString::fromStdString(content.impression.value().value_or("")));
}

}  // namespace delineate::app
