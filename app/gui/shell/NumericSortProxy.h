#pragma once
// A sort proxy for result tables: cells whose sort data (Qt::UserRole) is a number sort by value,
// with missing values (NaN, or no number) after every number in both sort orders; other cells
// sort as text in natural order ("case_2" before "case_10").
#include <QCollator>
#include <QSortFilterProxyModel>

namespace delineate::app {

class NumericSortProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit NumericSortProxy(QObject* parent = nullptr);

 protected:
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

 private:
  QCollator collator_;
};

}  // namespace delineate::app
