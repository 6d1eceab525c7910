#pragma once
// A table cell that shows a formatted number and sorts by its value, with missing values (NaN)
// after every number in either sort order's ascending sense ("—" is shown for them).
#include <QTableWidgetItem>
#include <cmath>

namespace delineate::app {

class NumericTableItem : public QTableWidgetItem {
 public:
  NumericTableItem(double value, int decimals)
      : QTableWidgetItem(std::isfinite(value) ? QString::number(value, 'f', decimals)
                         : std::isnan(value)  ? QStringLiteral("—")
                         : value > 0          ? QStringLiteral("inf")
                                              : QStringLiteral("-inf")),
        value_(value) {
    setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  }
  double value() const { return value_; }
  bool operator<(const QTableWidgetItem& other) const override {
    const auto* o = dynamic_cast<const NumericTableItem*>(&other);
    if (!o) {
      return QTableWidgetItem::operator<(other);
    }
    if (std::isnan(value_) || std::isnan(o->value_)) {
      return !std::isnan(value_) && std::isnan(o->value_);
    }
    return value_ < o->value_;
  }

 private:
  double value_;
};

}  // namespace delineate::app
