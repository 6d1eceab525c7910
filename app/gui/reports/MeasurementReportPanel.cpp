#include "app/gui/reports/MeasurementReportPanel.h"

#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>
#include <cstdio>

#include "app/gui/editing/EditSession.h"
#include "app/gui/reports/ReportAudit.h"
#include "app/gui/reports/ReportExportButton.h"
#include "app/gui/reports/ReportSteps.h"
#include "app/gui/reports/ReportUndoKeys.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/gui/shell/JobRunner.h"
#include "app/gui/shell/NumericTableItem.h"
#include "core/report/MeasurementReportJson.h"

namespace delineate::app {

namespace cr = core::report;

namespace {

constexpr int kCopyRetryMs = 30;
constexpr int kCopyAttempts = 200;

struct Measured {
  cr::MeasurementReport report;
  std::vector<cr::AuditEntry> entries;
};

}  // namespace

MeasurementReportPanel::MeasurementReportPanel(EditSession* session, ReportAudit* audit,
                                               bool interactive, QWidget* parent)
    : QWidget(parent),
      session_(session),
      audit_(audit),
      interactive_(interactive),
      jobs_(new JobRunner(this)) {
  auto* column = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  createButton_ = new QPushButton(tr("Create from segments"), this);
  createButton_->setToolTip(tr("Measure every segment of the active label map"));
  updateButton_ = new QPushButton(tr("Update"), this);
  updateButton_->setToolTip(tr("Measure again after edits; a deleted segment's row is kept"));
  top->addWidget(createButton_);
  top->addWidget(updateButton_);
  top->addStretch(1);
  column->addLayout(top);
  column->addWidget(new JobProgressWidget(jobs_, this));  // progress and Cancel while measuring
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  column->addWidget(status_);
  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setHorizontalHeaderLabels(
      {tr("Segment"), tr("Volume (mL)"), tr("Mean"), tr("SD"), tr("Largest ⌀ (mm)"), tr("Link")});
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  column->addWidget(table_, 1);
  auto* form = new QFormLayout;
  impression_ = new QPlainTextEdit(this);
  impression_->setObjectName(QStringLiteral("measurementImpression"));
  impression_->setMaximumHeight(70);
  recommendations_ = new QPlainTextEdit(this);
  recommendations_->setObjectName(QStringLiteral("measurementRecommendations"));
  recommendations_->setMaximumHeight(55);
  form->addRow(tr("Impression"), impression_);
  form->addRow(tr("Recommendations"), recommendations_);
  notesProvenance_ = new QLabel(this);
  notesProvenance_->setWordWrap(true);
  notesProvenance_->setMinimumHeight(notesProvenance_->fontMetrics().lineSpacing() * 2);
  applyButton_ = new QPushButton(tr("Apply"), this);
  auto* notesRow = new QHBoxLayout;
  notesRow->addWidget(notesProvenance_, 1);
  notesRow->addWidget(applyButton_);
  form->addRow(QString(), notesRow);
  column->addLayout(form);
  auto* buttons = new QGridLayout;
  undoButton_ = new QPushButton(tr("Undo"), this);
  redoButton_ = new QPushButton(tr("Redo"), this);
  signButton_ = new QPushButton(tr("Sign…"), this);
  addendumButton_ = new QPushButton(tr("Addendum…"), this);
  saveButton_ = new QPushButton(tr("Save JSON…"), this);
  auto* openButton = new QPushButton(tr("Open JSON…"), this);
  undoButton_->setToolTip(tr("Undo the last change of the report (Ctrl+Z)"));
  redoButton_->setToolTip(tr("Redo (Ctrl+Shift+Z)"));
  buttons->addWidget(undoButton_, 0, 0);
  buttons->addWidget(redoButton_, 0, 1);
  buttons->addWidget(signButton_, 0, 2);
  buttons->addWidget(addendumButton_, 1, 0);
  buttons->addWidget(saveButton_, 1, 1);
  buttons->addWidget(openButton, 1, 2);
  exportButton_ = new ReportExportButton([this](QString& whyNot) { return exportSource(whyNot); },
                                         interactive_, this);
  buttons->addWidget(exportButton_, 2, 0, 1, 3);
  column->addLayout(buttons);
  column->addWidget(new JobProgressWidget(exportButton_->jobs(), this));
  connect(exportButton_, &ReportExportButton::exported, this,
          [this](const QString& file, const QStringList& notes, const QString& error) {
            status_->setText(
                error.isEmpty()
                    ? tr("Exported to %1.").arg(file) +
                          (notes.isEmpty() ? QString()
                                           : QStringLiteral(" ") + notes.join(QStringLiteral("; ")))
                    : error);
          });
  new ReportUndoKeys(
      this, [this] { undo(); }, [this] { redo(); });

  connect(createButton_, &QPushButton::clicked, this, &MeasurementReportPanel::createFromSegments);
  connect(updateButton_, &QPushButton::clicked, this, &MeasurementReportPanel::update);
  connect(applyButton_, &QPushButton::clicked, this,
          [this] { setNotes(impression_->toPlainText(), recommendations_->toPlainText()); });
  connect(undoButton_, &QPushButton::clicked, this, &MeasurementReportPanel::undo);
  connect(redoButton_, &QPushButton::clicked, this, &MeasurementReportPanel::redo);
  connect(signButton_, &QPushButton::clicked, this, [this] {
    report_steps::askAndSign(
        this, [this](const QString& name) { return sign(name); },
        [this](const QString& message) { reportError(message); });
  });
  connect(addendumButton_, &QPushButton::clicked, this, [this] {
    report_steps::askAndAddAddendum(
        this, [this](const QString& text, const QString& name) { return addAddendum(text, name); });
  });
  connect(saveButton_, &QPushButton::clicked, this, [this] {
    const QString f =
        QFileDialog::getSaveFileName(this, tr("Save the measurement report"),
                                     QStringLiteral("measurements.json"), tr("Report (*.json)"));
    if (!f.isEmpty()) {
      save(f);
    }
  });
  connect(openButton, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, tr("Open a measurement report"), {},
                                                   tr("Report (*.json);;All files (*)"));
    if (!f.isEmpty()) {
      open(f);
    }
  });
  connect(session_, &EditSession::labelMapsChanged, this, &MeasurementReportPanel::refresh);
  refresh();
}

MeasurementReportPanel::~MeasurementReportPanel() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

QString MeasurementReportPanel::user() const {
  return report_steps::user();
}

bool MeasurementReportPanel::busy() const {
  return jobs_->busy();
}

bool MeasurementReportPanel::createFromSegments() {
  return startMeasuring(false);
}

bool MeasurementReportPanel::update() {
  if (!report_) {
    return createFromSegments();
  }
  if (report_->locked()) {
    reportError(tr("The report is signed: measurements cannot change (add an addendum)."));
    return false;
  }
  return startMeasuring(true);
}

std::optional<ReportExportSource> MeasurementReportPanel::exportSource(QString& whyNot) const {
  if (!report_) {
    whyNot =
        tr("There is no measurement report to export: create one from the segments or open "
           "one.");
    return std::nullopt;
  }
  ReportExportSource source{*report_, session_->image(), nullptr, {}, std::nullopt};
  const auto map = session_->activeMap();
  const bool same =
      map && !report_->rows().empty() && report_->rows().front().link.labelMap == map->name();
  if (same) {
    source.labels = session_->readCopy(*map);  // none while it is painted: no key images
  }
  return source;
}

bool MeasurementReportPanel::startMeasuring(bool updating, int attempt) {
  const auto map = session_->activeMap();
  const core::VolumePtr image = session_->image();
  if (!map || !image) {
    reportError(
        tr("Open an image and draw or open segments first: there is no label map to "
           "measure."));
    return false;
  }
  // The worker reads a copy: never voxels the GUI thread is painting.
  auto copy = session_->readCopy(*map);
  if (!copy) {
    if (attempt >= kCopyAttempts) {
      reportError(tr("The label map is busy; try again."));
      return false;
    }
    QTimer::singleShot(kCopyRetryMs, this,
                       [this, updating, attempt] { startMeasuring(updating, attempt + 1); });
    return true;
  }
  std::optional<cr::MeasurementReport> base = updating ? report_ : std::nullopt;
  const std::string who = user().toStdString(), when = report_steps::now();
  const core::VolumeInfo& info = image->info();
  const cr::ReportSubject subject{info.patientName, info.patientId, info.patientBirthDate,
                                  info.studyInstanceUid, info.accessionNumber};
  status_->setText(updating ? tr("Measuring again…") : tr("Measuring the segments…"));
  jobs_->run<Measured>(
      updating ? tr("Updating the measurement report") : tr("Measuring segments for the report"),
      [copy, image, base, who, when, subject](core::ProgressSink& progress) {
        Measured m;
        if (base) {
          m.report = *base;
          m.entries = m.report.update(who, when, *copy, image.get(), progress);
        } else {
          m.report = cr::MeasurementReport::measure(*copy, image.get(), progress);
          m.report.setSubject(subject);
          m.entries.push_back(
              {when, who, "create", "", "", std::to_string(m.report.rows().size()) + " rows"});
        }
        return m;
      },
      [this, updating](Measured m) {
        if (!updating || !report_) {
          report_ = std::move(m.report);
          history_.clear();
          record(m.entries);
        } else {
          // The rows are the update's; notes typed meanwhile stay.
          apply([&](cr::MeasurementReport& r) {
            r.signOff().requireUnlocked("update the measurements");
            r = cr::MeasurementReport::restore(r.subject(), m.report.rows(), r.notes(),
                                               r.signOff());
            return m.entries;
          });
        }
        refresh();
        Q_EMIT measured();
      },
      [this](const QString& error, bool cancelled) {
        refresh();
        if (!cancelled) {
          reportError(tr("Cannot measure the segments:\n%1").arg(error));
        }
        Q_EMIT measured();
      });
  return true;
}

void MeasurementReportPanel::apply(
    const std::function<std::vector<cr::AuditEntry>(cr::MeasurementReport&)>& change) {
  if (!report_) {
    return;
  }
  try {
    record(history_.change(*report_, change));
  } catch (const core::Error& e) {
    reportError(QString::fromUtf8(e.what()));
  }
  refresh();
}

bool MeasurementReportPanel::setNotes(const QString& impression, const QString& recommendations) {
  if (!report_ || report_->locked()) {
    return false;
  }
  const std::string i = impression.toStdString(), r = recommendations.toStdString();
  apply([&](cr::MeasurementReport& report) {
    return report.edit(user().toStdString(), report_steps::now(), [&](cr::MeasurementNotes& n) {
      if (n.impression.value().value_or("") != i) {
        if (i.empty()) {
          n.impression.clear();
        } else {
          n.impression.set(i);
        }
      }
      if (n.recommendations.value().value_or("") != r) {
        if (r.empty()) {
          n.recommendations.clear();
        } else {
          n.recommendations.set(r);
        }
      }
    });
  });
  return true;
}

bool MeasurementReportPanel::undo() {
  if (!report_steps::undo(report_, history_, recorder())) {
    return false;
  }
  refresh();
  return true;
}

bool MeasurementReportPanel::redo() {
  if (!report_steps::redo(report_, history_, recorder())) {
    return false;
  }
  refresh();
  return true;
}

QStringList MeasurementReportPanel::sign(const QString& name) {
  const QStringList missing = report_steps::sign(report_, history_, name, recorder());
  refresh();
  return missing;
}

bool MeasurementReportPanel::addAddendum(const QString& text, const QString& name) {
  const QString problem = report_steps::addAddendum(report_, text, name, recorder());
  if (!problem.isEmpty()) {
    reportError(problem);
    return false;
  }
  refresh();
  return true;
}

bool MeasurementReportPanel::save(const QString& file) {
  if (!report_) {
    return false;
  }
  try {
    cr::writeMeasurementReport(*report_, file.toStdString());
    return true;
  } catch (const core::Error& e) {
    reportError(tr("Cannot save the report %1:\n%2").arg(file, QString::fromUtf8(e.what())));
    return false;
  }
}

bool MeasurementReportPanel::open(const QString& file) {
  try {
    setReport(cr::readMeasurementReport(file.toStdString()));
    return true;
  } catch (const core::Error& e) {
    reportError(tr("Cannot open the report:\n%1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

void MeasurementReportPanel::setReport(cr::MeasurementReport report) {
  jobs_->cancel();
  report_ = std::move(report);
  history_.clear();
  refresh();
}

report_steps::Record MeasurementReportPanel::recorder() {
  return [this](const std::vector<cr::AuditEntry>& entries) { record(entries); };
}

void MeasurementReportPanel::record(const std::vector<cr::AuditEntry>& entries) {
  const QString problem = audit_->append(entries);
  if (!problem.isEmpty()) {
    reportError(tr("The audit trail cannot be written (%1); the change is kept in the report.")
                    .arg(problem));
  }
}

QString MeasurementReportPanel::statusText() const {
  return status_->text();
}

void MeasurementReportPanel::refresh() {
  const bool has = report_.has_value();
  const bool locked = has && report_->locked();
  const bool canMeasure = session_->activeMap() != nullptr && session_->image() != nullptr;
  createButton_->setEnabled(canMeasure);
  updateButton_->setEnabled(canMeasure && has && !locked);
  for (QWidget* w : std::initializer_list<QWidget*>{impression_, recommendations_, applyButton_}) {
    w->setEnabled(has && !locked);
  }
  signButton_->setEnabled(has && !locked);
  addendumButton_->setEnabled(locked);
  saveButton_->setEnabled(has);
  undoButton_->setEnabled(has && history_.canUndo(*report_));
  redoButton_->setEnabled(has && history_.canRedo(*report_));
  table_->setRowCount(0);
  if (!has) {
    status_->setText(canMeasure ? tr("No report. Create one from the segments of the label map.")
                                : tr("No report. Open an image with segments, then create one."));
    impression_->clear();
    recommendations_->clear();
    notesProvenance_->clear();
    return;
  }
  const auto& rows = report_->rows();
  table_->setRowCount(static_cast<int>(rows.size()));
  int broken = 0;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const cr::MeasurementRow& r = rows[static_cast<std::size_t>(i)];
    broken += r.link.broken ? 1 : 0;
    auto set = [&](int column, QTableWidgetItem* item) {
      if (r.link.broken) {
        item->setForeground(QColor(200, 60, 60));
      }
      table_->setItem(i, column, item);
    };
    set(Name, new QTableWidgetItem(QString::fromStdString(r.name)));
    set(Volume, new NumericTableItem(r.volumeMl, 2));
    set(Mean, new NumericTableItem(r.mean.value_or(std::nan("")), 1));
    set(Sd, new NumericTableItem(r.sd.value_or(std::nan("")), 1));
    set(Diameter, new NumericTableItem(r.largestDiameterMm, 1));
    set(Link, new QTableWidgetItem(r.link.broken ? tr("broken") : tr("linked")));
    table_->item(i, Link)->setToolTip(
        r.link.broken ? tr("The segment was deleted: the values are as last measured (%1)")
                            .arg(QString::fromStdString(r.link.text()))
                      : QString::fromStdString(r.link.text()));
  }
  QString status = tr("%n row(s)", nullptr, static_cast<int>(rows.size()));
  if (broken > 0) {
    status += tr("; %n row(s) of deleted segments keep their last values", nullptr, broken);
  }
  if (const auto& signature = report_->signOff().signature()) {
    status +=
        tr(". Signed by %1 at %2; locked (addenda: %3).")
            .arg(QString::fromStdString(signature->name), QString::fromStdString(signature->time))
            .arg(report_->signOff().addenda().size());
  } else {
    status += QStringLiteral(".");
  }
  status_->setText(status);
  const cr::MeasurementNotes& notes = report_->notes();
  impression_->setPlainText(QString::fromStdString(notes.impression.value().value_or("")));
  recommendations_->setPlainText(
      QString::fromStdString(notes.recommendations.value().value_or("")));
  notesProvenance_->setText(
      tr("Provenance: impression %1, recommendations %2")
          .arg(notes.impression.empty()
                   ? tr("empty")
                   : QString::fromLatin1(cr::keyOf(notes.impression.provenance())),
               notes.recommendations.empty()
                   ? tr("empty")
                   : QString::fromLatin1(cr::keyOf(notes.recommendations.provenance()))));
  notesProvenance_->setToolTip(tr("manual: entered by the reader; empty: not written yet"));
}

void MeasurementReportPanel::reportError(const QString& message) {
  if (interactive_) {
    QMessageBox::warning(this, tr("Measurement report"), message);
  } else {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
}

}  // namespace delineate::app
