#pragma once
// The dataset upload dialog's table of cases: image, label files, case id, the check's verdict
// (errors red, warnings amber, passing green; the first message in the cell, all of them in its
// tooltip) and what Send or Export did with it; and the text of the details box below it.
#include <QTableWidget>
#include <vector>

#include "app/gui/compare/DatasetCaseRow.h"

namespace delineate::app {

class DatasetCaseTable : public QTableWidget {
  Q_OBJECT

 public:
  enum Column { SourceColumn, LabelsColumn, IdColumn, CheckColumn, OutcomeColumn, ColumnCount };

  explicit DatasetCaseTable(QWidget* parent = nullptr);

  void showRows(const std::vector<DatasetCaseRow>& rows);
  // The selected row's findings, or with none selected every case's.
  QString details(const std::vector<DatasetCaseRow>& rows) const;
  // Rows with a selected cell, each once, in order.
  std::vector<int> selectedRows() const;
};

}  // namespace delineate::app
