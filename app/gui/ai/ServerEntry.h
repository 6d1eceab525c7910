#pragma once
// One AI server as kept in the settings list "ai/servers": "URL" (a MONAI Label server, as
// earlier versions stored it), "KIND URL", or "KIND URL OPTION..." where an option is
// "key=value". The one option so far is "deidentify=off" (docs/deidentification.md); options a
// later version writes and this one does not know are kept when the entry is written back. An
// entry with no option is written in the earlier forms, so that unchanged settings stay as they
// were.
#include <QString>
#include <QStringList>

namespace delineate::app {

struct ServerEntry {
  static constexpr const char* kDefaultKind = "monai-label";

  QString kind = QString::fromLatin1(kDefaultKind);
  QString url;
  bool deidentify = true;  // de-identify before sending (core::deid::OutboundPolicy)
  QStringList otherOptions;

  static ServerEntry parse(const QString& text);
  QString toString() const;
  // The server itself, whatever its options: "KIND URL".
  QString key() const { return kind + QLatin1Char(' ') + url; }
};

}  // namespace delineate::app
