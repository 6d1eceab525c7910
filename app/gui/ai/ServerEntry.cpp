#include "app/gui/ai/ServerEntry.h"

namespace delineate::app {

namespace {

constexpr const char* kDeidentifyOff = "deidentify=off";
constexpr const char* kDeidentifyOn = "deidentify=on";

}  // namespace

ServerEntry ServerEntry::parse(const QString& text) {
  const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
  ServerEntry e;
  if (words.size() == 1) {
    e.url = words.front();
    return e;
  }
  if (words.size() >= 2) {
    e.kind = words[0];
    e.url = words[1];
  }
  for (qsizetype i = 2; i < words.size(); ++i) {
    if (words[i] == QLatin1String(kDeidentifyOff)) {
      e.deidentify = false;
    } else if (words[i] == QLatin1String(kDeidentifyOn)) {
      e.deidentify = true;
    } else {
      e.otherOptions << words[i];
    }
  }
  return e;
}

QString ServerEntry::toString() const {
  QStringList options = otherOptions;
  if (!deidentify) {
    options.prepend(QString::fromLatin1(kDeidentifyOff));
  }
  if (options.isEmpty()) {
    return kind == QLatin1String(kDefaultKind) ? url : key();
  }
  return key() + QLatin1Char(' ') + options.join(QLatin1Char(' '));
}

}  // namespace delineate::app
