#include "app/gui/preferences/Preferences.h"

#include <QSettings>

namespace delineate::app {

namespace {

int bounded(const QSettings& s, const char* key, int fallback, int low, int high) {
  bool ok = false;
  const int v = s.value(QString::fromLatin1(key)).toInt(&ok);
  return ok && v >= low && v <= high ? v : fallback;
}

}  // namespace

Preferences Preferences::load() {
  const QSettings s;
  Preferences p;
  p.undoSteps = bounded(s, "preferences/undoSteps", p.undoSteps, kMinUndoSteps, kMaxUndoSteps);
  p.undoMegabytes = bounded(s, "preferences/undoMegabytes", p.undoMegabytes, kMinUndoMegabytes,
                            kMaxUndoMegabytes);
  p.autosaveMinutes =
      bounded(s, "preferences/autosaveMinutes", p.autosaveMinutes, 0, kMaxAutosaveMinutes);
  p.theme = themeModeFromString(s.value(QStringLiteral("preferences/theme")).toString());
  p.volumeQuality = viewers::volumeQualityFromString(
      s.value(QStringLiteral("preferences/volumeQuality")).toString());
  p.readerName = s.value(QStringLiteral("preferences/readerName")).toString().trimmed();
  return p;
}

void Preferences::save() const {
  QSettings s;
  s.setValue(QStringLiteral("preferences/undoSteps"), undoSteps);
  s.setValue(QStringLiteral("preferences/undoMegabytes"), undoMegabytes);
  s.setValue(QStringLiteral("preferences/autosaveMinutes"), autosaveMinutes);
  s.setValue(QStringLiteral("preferences/theme"), toString(theme));
  s.setValue(QStringLiteral("preferences/volumeQuality"), viewers::toString(volumeQuality));
  s.setValue(QStringLiteral("preferences/readerName"), readerName.trimmed());
}

QString readerName(const QString& signedIn) {
  if (!signedIn.trimmed().isEmpty()) {
    return signedIn.trimmed();
  }
  const QString chosen = Preferences::load().readerName;
  if (!chosen.isEmpty()) {
    return chosen;
  }
  const QString login = QString::fromLocal8Bit(qgetenv("USER")).trimmed();
  return login.isEmpty() ? QStringLiteral("reader") : login;
}

}  // namespace delineate::app
