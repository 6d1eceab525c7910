#include "app/gui/compare/DatasetCaseTable.h"

#include <QColor>
#include <QHeaderView>
#include <QStringList>
#include <algorithm>
#include <set>

namespace delineate::app {

namespace {

using Severity = core::upload::LintFinding::Severity;

const QColor kErrorTint(255, 214, 214);
const QColor kWarningTint(255, 234, 190);
const QColor kOkTint(214, 240, 214);

QString fileName(const std::filesystem::path& path) {
  return QString::fromStdString(path.filename().string());
}

// A series picked in the study browser is named as the browser names it; a file by its name.
QString imageName(const DatasetCaseRow& row) {
  if (const auto& s = row.picked.series) {
    QString name =
        QObject::tr("Series %1 · %2").arg(s->seriesNumber).arg(QString::fromStdString(s->modality));
    if (!s->description.empty()) {
      name += QStringLiteral(" · ") + QString::fromStdString(s->description);
    }
    return name;
  }
  return fileName(row.picked.image);
}

QString findingLine(const core::upload::LintFinding& f) {
  return (f.severity == Severity::Error ? QObject::tr("error: ") : QObject::tr("warning: ")) +
         QString::fromStdString(f.message);
}

// A finding as the cell shows it: the case's folder left out of the file names (the details and
// the tooltip keep the whole message).
QString shortMessage(const DatasetCaseRow& row, const core::upload::LintFinding& finding) {
  QString text = QString::fromStdString(finding.message);
  const QString folder = QString::fromStdString(row.picked.image.parent_path().string());
  if (!folder.isEmpty()) {
    text.replace(folder + QLatin1Char('/'), QString());
  }
  return text;
}

}  // namespace

DatasetCaseTable::DatasetCaseTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent) {
  setHorizontalHeaderLabels(
      {tr("Image"), tr("Labels"), tr("Case id"), tr("Check"), tr("Sent / written")});
  setSelectionBehavior(QAbstractItemView::SelectRows);
  verticalHeader()->hide();
  horizontalHeader()->setStretchLastSection(true);
  setWordWrap(false);
}

void DatasetCaseTable::showRows(const std::vector<DatasetCaseRow>& rows) {
  setRowCount(static_cast<int>(rows.size()));
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const DatasetCaseRow& r = rows[std::size_t(i)];
    QStringList labels, labelPaths;
    for (const std::filesystem::path& l : r.picked.labels) {
      labels << fileName(l);
      labelPaths << QString::fromStdString(l.string());
    }
    QStringList messages;
    for (const auto& f : r.findings) {
      messages << findingLine(f);
    }
    QString verdict;
    QColor tint;
    if (!r.checked) {
      verdict = tr("not checked");
    } else if (r.errors() > 0) {
      verdict = r.errors() == 1 ? tr("error") : tr("%1 errors").arg(r.errors());
      tint = kErrorTint;
    } else if (r.warnings() > 0) {
      verdict = r.warnings() == 1 ? tr("warning") : tr("%1 warnings").arg(r.warnings());
      tint = kWarningTint;
    } else {
      verdict = tr("OK");
      tint = kOkTint;
    }
    if (!r.findings.empty()) {
      verdict += QStringLiteral(": ") + shortMessage(r, r.findings.front());
    }
    const QString cells[ColumnCount] = {
        imageName(r), labels.isEmpty() ? tr("(none)") : labels.join(QStringLiteral(", ")),
        QString::fromStdString(r.id), verdict, r.outcome};
    const QString tips[ColumnCount] = {
        QString::fromStdString(r.picked.image.string()), labelPaths.join(QLatin1Char('\n')),
        cells[IdColumn], messages.isEmpty() ? verdict : messages.join(QLatin1Char('\n')),
        r.outcome};
    for (int c = 0; c < ColumnCount; ++c) {
      auto* cell = new QTableWidgetItem(cells[c]);
      cell->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
      cell->setToolTip(tips[c]);
      if (c == CheckColumn && tint.isValid()) {
        cell->setBackground(tint);
        cell->setForeground(QBrush(Qt::black));
      }
      setItem(i, c, cell);
    }
  }
  resizeColumnsToContents();
  setColumnWidth(CheckColumn, std::min(columnWidth(CheckColumn), 380));
}

std::vector<int> DatasetCaseTable::selectedRows() const {
  std::set<int> rows;
  for (const QTableWidgetItem* cell : selectedItems()) {
    rows.insert(cell->row());
  }
  return {rows.begin(), rows.end()};
}

QString DatasetCaseTable::details(const std::vector<DatasetCaseRow>& rows) const {
  QStringList lines;
  const std::vector<int> selected = selectedRows();
  if (selected.empty() || std::size_t(selected.front()) >= rows.size()) {
    // Nothing selected: what every case needs looked at, one line each.
    for (const DatasetCaseRow& r : rows) {
      for (const auto& f : r.findings) {
        lines << findingLine(f);
      }
    }
    return lines.join(QLatin1Char('\n'));
  }
  const DatasetCaseRow& r = rows[std::size_t(selected.front())];
  lines << QString::fromStdString(r.picked.image.string());
  if (!r.checked) {
    lines << tr("Not checked yet.");
  }
  for (const auto& f : r.findings) {
    lines << findingLine(f);
  }
  if (r.checked && r.findings.empty()) {
    lines << tr("Passes the check.");
  }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace delineate::app
