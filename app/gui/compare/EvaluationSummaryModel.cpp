#include "app/gui/compare/EvaluationSummaryModel.h"

#include <cmath>
#include <string_view>

#include "core/metrics/DatasetEvaluation.h"

namespace delineate::app {

namespace {

constexpr std::size_t kDice = core::index(core::Metric::Dice);
constexpr std::size_t kHd95 = core::index(core::Metric::Hd95Mm);
constexpr std::size_t kAssd = core::index(core::Metric::AssdMm);
constexpr std::size_t kSurfaceDice = core::index(core::Metric::SurfaceDice);

QString number(double value, int decimals) {
  if (std::isnan(value)) {
    return QStringLiteral("—");
  }
  if (std::isinf(value)) {
    return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  }
  return QString::number(value, 'f', decimals);
}

QStandardItem* cell(const QString& text, const QVariant& value = {}) {
  auto* item = new QStandardItem(text);
  item->setEditable(false);
  item->setData(value.isValid() ? value : QVariant(text), Qt::UserRole);
  if (value.isValid()) {
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  }
  return item;
}

// "0.912 ± 0.031" (the SD only when there are two values or more).
QStandardItem* meanCell(const core::SummaryStatistics& s, int decimals) {
  const QString text =
      s.n >= 2 ? number(s.mean, decimals) + QStringLiteral(" ± ") + number(s.sd, decimals)
               : number(s.mean, decimals);
  QStandardItem* item = cell(text, s.mean);
  item->setData(s.sd, Qt::UserRole + 1);
  item->setToolTip(QObject::tr("n = %1").arg(s.n));
  return item;
}

QStandardItem* iqrCell(const core::SummaryStatistics& s, int decimals) {
  const QString text = s.n == 0 ? number(s.iqr(), decimals)
                                : QStringLiteral("%1 (%2–%3)")
                                      .arg(number(s.iqr(), decimals), number(s.q1, decimals),
                                           number(s.q3, decimals));
  QStandardItem* item = cell(text, s.iqr());
  item->setData(s.q1, Qt::UserRole + 1);
  item->setData(s.q3, Qt::UserRole + 2);
  return item;
}

// What the statistics left out: "HD95: 1 infinite; 1 empty in both".
QString leftOut(const core::LabelSummary& s) {
  QStringList parts;
  const std::pair<const char*, std::size_t> metrics[] = {
      {"Dice", kDice}, {"HD95", kHd95}, {"ASSD", kAssd}, {"surface Dice", kSurfaceDice}};
  for (const auto& [name, m] : metrics) {
    const core::SummaryStatistics& st = s.metrics[m];
    if (st.infinite > 0) {
      parts << QObject::tr("%1: %2 infinite").arg(QLatin1String(name)).arg(st.infinite);
    }
    if (st.undefined > 0) {
      parts << QObject::tr("%1: %2 undefined").arg(QLatin1String(name)).arg(st.undefined);
    }
  }
  if (s.emptyInBoth > 0) {
    parts << QObject::tr("%1 empty in both (left out)").arg(s.emptyInBoth);
  }
  return parts.join(QStringLiteral("; "));
}

}  // namespace

EvaluationSummaryModel::EvaluationSummaryModel(QObject* parent) : QStandardItemModel(parent) {
  setColumnCount(kColumnCount);
  setHorizontalHeaderLabels(
      {tr("Label"), tr("Cases"), tr("Dice mean ± SD"), tr("Dice median"), tr("Dice IQR (Q1–Q3)"),
       tr("HD95 mean ± SD (mm)"), tr("HD95 median (mm)"), tr("HD95 IQR (Q1–Q3)"),
       tr("ASSD mean ± SD (mm)"), tr("Surface Dice mean ± SD"), tr("Left out")});
}

void EvaluationSummaryModel::clearRows() {
  removeRows(0, rowCount());
}

void EvaluationSummaryModel::setEvaluation(const core::DatasetEvaluation& evaluation) {
  clearRows();
  for (const core::LabelSummary& s : evaluation.summary) {
    QList<QStandardItem*> row(kColumnCount);
    row[kLabelColumn] = cell(QString::fromStdString(s.name));
    row[kCasesColumn] = cell(QString::number(s.cases), static_cast<qulonglong>(s.cases));
    row[kDiceMeanColumn] = meanCell(s.metrics[kDice], 3);
    row[kDiceMedianColumn] = cell(number(s.metrics[kDice].median, 3), s.metrics[kDice].median);
    row[kDiceIqrColumn] = iqrCell(s.metrics[kDice], 3);
    row[kHd95MeanColumn] = meanCell(s.metrics[kHd95], 2);
    row[kHd95MedianColumn] = cell(number(s.metrics[kHd95].median, 2), s.metrics[kHd95].median);
    row[kHd95IqrColumn] = iqrCell(s.metrics[kHd95], 2);
    row[kAssdMeanColumn] = meanCell(s.metrics[kAssd], 2);
    row[kSurfaceDiceMeanColumn] = meanCell(s.metrics[kSurfaceDice], 3);
    row[kNoteColumn] = cell(leftOut(s));
    row[kNoteColumn]->setToolTip(row[kNoteColumn]->text());
    appendRow(row);
  }
}

}  // namespace delineate::app
