#pragma once
// The report docks' steps (core/report/ReportSteps.h: undo, redo, sign, addendum) stamped with the
// reader (the login name) and the clock (UTC, ISO 8601), and the dialogs that ask for a name or
// an addendum's text. The dock refreshes itself afterwards.
#include <QByteArray>
#include <QDateTime>
#include <QInputDialog>
#include <QLineEdit>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/report/ReportSteps.h"

namespace delineate::app::report_steps {

using Record = core::report::Record;

inline std::string now() {
  return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

inline QString user() {
  const QByteArray u = qgetenv("USER");
  return u.isEmpty() ? QStringLiteral("reader") : QString::fromLocal8Bit(u);
}

// False when there is nothing to undo (or redo).
template <class Report>
bool undo(std::optional<Report>& report, core::report::ReportHistory<Report>& history,
          const Record& record) {
  return core::report::undoStep(report, history, user().toStdString(), now(), record);
}

template <class Report>
bool redo(std::optional<Report>& report, core::report::ReportHistory<Report>& history,
          const Record& record) {
  return core::report::redoStep(report, history, user().toStdString(), now(), record);
}

// Empty when signed; else what is missing, or why it cannot be signed.
template <class Report>
QStringList sign(std::optional<Report>& report, core::report::ReportHistory<Report>& history,
                 const QString& name, const Record& record) {
  QStringList out;
  for (const std::string& m :
       core::report::signStep(report, history, name.toStdString(), now(), record)) {
    out << QString::fromStdString(m);
  }
  return out;
}

// "" when added, else why not (no report: "there is no report").
template <class Report>
QString addAddendum(std::optional<Report>& report, const QString& text, const QString& name,
                    const Record& record) {
  return QString::fromStdString(
      core::report::addendumStep(report, text.toStdString(), name.toStdString(), now(), record));
}

// The Sign button: asks the reader's name, signs with `sign` and shows what is still missing
// through `error`.
inline void askAndSign(QWidget* parent, const std::function<QStringList(const QString&)>& sign,
                       const std::function<void(const QString&)>& error) {
  bool ok = false;
  const QString name =
      QInputDialog::getText(parent, QObject::tr("Sign the report"), QObject::tr("Your name:"),
                            QLineEdit::Normal, user(), &ok);
  if (ok && !name.isEmpty()) {
    const QStringList missing = sign(name);
    if (!missing.isEmpty()) {
      error(QObject::tr("The report cannot be signed yet:\n%1")
                .arg(missing.join(QStringLiteral("\n"))));
    }
  }
}

// The Addendum button: asks for the text and adds it, signed by the reader.
inline void askAndAddAddendum(QWidget* parent,
                              const std::function<bool(const QString&, const QString&)>& add) {
  bool ok = false;
  const QString text = QInputDialog::getMultiLineText(parent, QObject::tr("Addendum"),
                                                      QObject::tr("Text:"), {}, &ok);
  if (ok && !text.isEmpty()) {
    add(text, user());
  }
}

}  // namespace delineate::app::report_steps
