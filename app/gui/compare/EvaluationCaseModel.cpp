#include "app/gui/compare/EvaluationCaseModel.h"

#include <QBrush>
#include <QColor>
#include <cmath>
#include <limits>
#include <string_view>

#include "core/metrics/DatasetEvaluation.h"

namespace delineate::app {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const QColor kFailedTint(255, 214, 214);

// The metric columns: which metric, shown with how many decimals.
struct MetricColumn {
  int column;
  std::size_t metric;
  int decimals;
};
constexpr MetricColumn kMetricColumns[] = {
    {EvaluationCaseModel::kDiceColumn, core::index(core::Metric::Dice), 4},
    {EvaluationCaseModel::kHd95Column, core::index(core::Metric::Hd95Mm), 2},
    {EvaluationCaseModel::kAssdColumn, core::index(core::Metric::AssdMm), 2},
    {EvaluationCaseModel::kSurfaceDiceColumn, core::index(core::Metric::SurfaceDice), 4},
    {EvaluationCaseModel::kVolumeDiffPctColumn, core::index(core::Metric::VolumeDiffPct), 1}};

QString numberText(double value, int decimals) {
  if (std::isnan(value)) {
    return QStringLiteral("—");
  }
  if (std::isinf(value)) {
    return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  }
  return QString::number(value, 'f', decimals);
}

QStandardItem* textItem(const QString& text) {
  auto* item = new QStandardItem(text);
  item->setData(text, EvaluationCaseModel::kSortRole);
  item->setEditable(false);
  return item;
}

QStandardItem* numberItem(double value, int decimals) {
  auto* item = new QStandardItem(numberText(value, decimals));
  item->setData(value, EvaluationCaseModel::kSortRole);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  item->setEditable(false);
  if (std::isfinite(value)) {
    item->setToolTip(QString::number(value, 'g', 17));
  }
  return item;
}

// The label's note, the case's problem and the case's notes, joined with "; ".
QString noteText(const core::CaseEvaluation& c, const core::LabelEvaluation* label) {
  QStringList parts;
  if (label != nullptr && !label->note.empty()) {
    parts << QString::fromStdString(label->note);
  }
  if (!c.detail.empty()) {
    parts << QString::fromStdString(c.statusText());
  }
  for (const std::string& n : c.notes) {
    parts << QString::fromStdString(n);
  }
  return parts.join(QStringLiteral("; "));
}

}  // namespace

EvaluationCaseModel::EvaluationCaseModel(QObject* parent) : QStandardItemModel(parent) {
  setHeaders();
}

void EvaluationCaseModel::setHeaders() {
  setColumnCount(kColumnCount);
  setHorizontalHeaderLabels({tr("Case"), tr("Label"), tr("Status"), tr("Dice"), tr("HD95 (mm)"),
                             tr("ASSD (mm)"), tr("Surface Dice"), tr("Vol diff (%)"), tr("Note")});
}

void EvaluationCaseModel::clearRows() {
  removeRows(0, rowCount());
}

void EvaluationCaseModel::setEvaluation(const core::DatasetEvaluation& evaluation) {
  clearRows();
  for (std::size_t ci = 0; ci < evaluation.cases.size(); ++ci) {
    const core::CaseEvaluation& c = evaluation.cases[ci];
    const bool failed = c.status != core::CaseStatus::Ok;
    const int labels = static_cast<int>(c.labels.size());
    for (int li = labels == 0 ? -1 : 0; li < labels; ++li) {
      const core::LabelEvaluation* label = li < 0 ? nullptr : &c.labels[std::size_t(li)];
      QList<QStandardItem*> row(kColumnCount);
      row[kCaseColumn] = textItem(QString::fromStdString(c.name));
      row[kLabelColumn] = textItem(label ? QString::fromStdString(label->name) : QString());
      row[kStatusColumn] = textItem(QString::fromLatin1(core::toString(c.status)));
      row[kStatusColumn]->setToolTip(QString::fromStdString(c.statusText()));
      for (const MetricColumn& m : kMetricColumns) {
        row[m.column] = numberItem(label ? label->metrics[m.metric] : kNaN, m.decimals);
      }
      row[kNoteColumn] = textItem(noteText(c, label));
      row[kNoteColumn]->setToolTip(row[kNoteColumn]->text());
      row[kCaseColumn]->setData(static_cast<int>(ci), kCaseIndexRole);
      row[kCaseColumn]->setData(li, kLabelIndexRole);
      for (QStandardItem* item : row) {
        item->setData(failed, kFailedRole);
        if (failed) {
          item->setBackground(kFailedTint);
        }
      }
      appendRow(row);
    }
  }
}

int EvaluationCaseModel::caseIndex(int row) const {
  const QStandardItem* it = item(row, kCaseColumn);
  return it ? it->data(kCaseIndexRole).toInt() : -1;
}

int EvaluationCaseModel::labelIndex(int row) const {
  const QStandardItem* it = item(row, kCaseColumn);
  return it ? it->data(kLabelIndexRole).toInt() : -1;
}

}  // namespace delineate::app
