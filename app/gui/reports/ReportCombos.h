#pragma once
// Combo boxes for report fields whose values are enumerations (core/report/EnumTable.h): filled
// with "(none)" and the lexicon names, each item holding the value's key; set from and read back
// as an optional value. Shared by the report docks.
#include <QComboBox>
#include <QObject>
#include <QString>
#include <algorithm>
#include <optional>

#include "core/report/EnumTable.h"

namespace delineate::app {

template <class E>
void fillReportCombo(QComboBox* combo, const QString& none = QObject::tr("(none)")) {
  combo->clear();
  combo->addItem(none, QString());
  for (const auto& e : core::report::enumEntries<E>()) {
    combo->addItem(QString::fromLatin1(e.name), QString::fromLatin1(e.key));
  }
}

template <class E>
void setReportCombo(QComboBox* combo, const std::optional<E>& value) {
  const QString key = value ? QString::fromLatin1(core::report::keyOf(*value)) : QString();
  combo->setCurrentIndex(std::max(0, combo->findData(key)));
}

template <class E>
std::optional<E> reportComboValue(const QComboBox* combo) {
  return core::report::parseKey<E>(combo->currentData().toString().toStdString());
}

}  // namespace delineate::app
