#pragma once
// The steps both report docks (mammography, measurement) take the same way on the report they
// show: undo, redo, sign (nothing is undone across the signature) and addendum, each stamped with
// the reader (the login name) and the time (UTC, ISO 8601) and handed to `record` (the dock's
// audit) when it changed something. The dock refreshes itself afterwards.
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

#include "core/Error.h"
#include "core/report/AuditEntry.h"
#include "core/report/ReportHistory.h"
#include "core/report/ReportSignOff.h"

namespace delineate::app::report_steps {

using Record = std::function<void(const std::vector<core::report::AuditEntry>&)>;

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
  if (!report || !history.canUndo(*report)) {
    return false;
  }
  record(history.undo(*report, user().toStdString(), now()));
  return true;
}

template <class Report>
bool redo(std::optional<Report>& report, core::report::ReportHistory<Report>& history,
          const Record& record) {
  if (!report || !history.canRedo(*report)) {
    return false;
  }
  record(history.redo(*report, user().toStdString(), now()));
  return true;
}

// Empty when signed; else what is missing, or why it cannot be signed.
template <class Report>
QStringList sign(std::optional<Report>& report, core::report::ReportHistory<Report>& history,
                 const QString& name, const Record& record) {
  if (!report) {
    return {QStringLiteral("there is no report")};
  }
  try {
    record({report->sign(name.toStdString(), now())});
  } catch (const core::report::MissingFieldsError& e) {
    QStringList missing;
    for (const auto& m : e.missing()) {
      missing << QString::fromStdString(m);
    }
    return missing;
  } catch (const core::Error& e) {
    return {QString::fromUtf8(e.what())};
  }
  history.clear();  // nothing is undone across a signature
  return {};
}

// "" when added, else why not (no report: "there is no report").
template <class Report>
QString addAddendum(std::optional<Report>& report, const QString& text, const QString& name,
                    const Record& record) {
  if (!report) {
    return QStringLiteral("there is no report");
  }
  try {
    record({report->addAddendum(text.toStdString(), name.toStdString(), now())});
  } catch (const core::Error& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
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
