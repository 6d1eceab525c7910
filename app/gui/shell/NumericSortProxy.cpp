#include "app/gui/shell/NumericSortProxy.h"

#include <cmath>
#include <limits>

namespace delineate::app {

namespace {

// The cell's number; NaN when it holds none (a missing value).
double numberOf(const QVariant& v, bool* isNumber) {
  *isNumber = v.typeId() == QMetaType::Double || v.typeId() == QMetaType::Int ||
              v.typeId() == QMetaType::LongLong || v.typeId() == QMetaType::ULongLong ||
              v.typeId() == QMetaType::UInt;
  return *isNumber ? v.toDouble() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

NumericSortProxy::NumericSortProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(Qt::UserRole);
  collator_.setNumericMode(true);
  collator_.setCaseSensitivity(Qt::CaseInsensitive);
}

bool NumericSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  const QVariant l = left.data(sortRole());
  const QVariant r = right.data(sortRole());
  bool lNumber = false;
  bool rNumber = false;
  const double a = numberOf(l, &lNumber);
  const double b = numberOf(r, &rNumber);
  if (lNumber || rNumber) {
    const bool aMissing = std::isnan(a);
    const bool bMissing = std::isnan(b);
    if (aMissing || bMissing) {
      // Descending order asks lessThan(right, left): missing values then count as the smallest,
      // so that they come last either way.
      return sortOrder() == Qt::AscendingOrder ? !aMissing && bMissing : aMissing && !bMissing;
    }
    return a < b;
  }
  const QString lText = l.isValid() ? l.toString() : left.data(Qt::DisplayRole).toString();
  const QString rText = r.isValid() ? r.toString() : right.data(Qt::DisplayRole).toString();
  return collator_.compare(lText, rText) < 0;
}

}  // namespace delineate::app
