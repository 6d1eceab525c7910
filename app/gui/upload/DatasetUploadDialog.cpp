#include "app/gui/upload/DatasetUploadDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <filesystem>

#include "annotation/ai/ServerLabelSchema.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/compare/DatasetCaseTable.h"
#include "app/gui/shell/JobRunner.h"
#include "app/gui/upload/UploadController.h"
#include "core/dataset/DatasetStore.h"
#include "core/upload/DatasetCaseJobs.h"
#include "core/upload/StudyCases.h"
#include "core/upload/UploadQueue.h"

namespace delineate::app {

namespace fs = std::filesystem;
namespace up = core::upload;
using up::CaseOutcome;

// Where Check compares and Send sends: the AI panel's current server when it answered /info/.
struct DatasetUploadDialog::Destination {
  QString url;
  QString name;
  std::shared_ptr<core::ai::AiBackend> backend;
  std::vector<core::ai::ModelLabel> schema;
  core::deid::OutboundPolicy outbound;  // the server's "de-identify before sending"
  bool connected = false;
};

DatasetUploadDialog::DatasetUploadDialog(AiController* ai, UploadController* uploads,
                                         bool interactive, QWidget* parent)
    : QDialog(parent),
      ai_(ai),
      uploads_(uploads),
      interactive_(interactive),
      jobs_(new JobRunner(this)) {
  setObjectName(QStringLiteral("datasetUploadDialog"));
  setWindowTitle(tr("Upload dataset"));
  server_ = new QLabel(this);
  server_->setWordWrap(true);
  server_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  addFolder_ = new QPushButton(tr("Add folder…"), this);
  addFolder_->setToolTip(
      tr("An MSD folder (imagesTr, labelsTr) or images each with NAME_labels.nii.gz"));
  addImage_ = new QPushButton(tr("Add image and labels…"), this);
  addOpen_ = new QPushButton(tr("Add open image"), this);
  addOpen_->setToolTip(tr("The image shown in the window with its label maps"));
  addStudy_ = new QPushButton(tr("Add from study browser"), this);
  addStudy_->setToolTip(
      tr("The series selected in the study browser (all of them when none is selected), each "
         "with the DICOM segmentations drawn on it"));
  remove_ = new QPushButton(tr("Remove"), this);
  auto* adds = new QHBoxLayout;
  adds->addWidget(addFolder_);
  adds->addWidget(addImage_);
  adds->addWidget(addOpen_);
  adds->addWidget(addStudy_);
  adds->addWidget(remove_);
  adds->addStretch(1);

  table_ = new DatasetCaseTable(this);
  details_ = new QPlainTextEdit(this);
  details_->setReadOnly(true);
  details_->setPlaceholderText(
      tr("What the check finds: every case's errors and warnings, or the selected case's."));
  details_->setMaximumHeight(110);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->hide();
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  keepVersion_ = new QCheckBox(tr("Keep a version of each added folder before sending"), this);
  keepVersion_->setToolTip(
      tr("A dataset snapshot beside the data (.delineate-snapshots): the id sent is shown, and a "
         "training request names it"));
  keepVersion_->setChecked(true);
  snapshot_ = new QLabel(this);
  snapshot_->setWordWrap(true);
  snapshot_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  check_ = new QPushButton(tr("Check"), this);
  check_->setToolTip(tr("Lint every case against the server's labels; nothing is sent"));
  send_ = new QPushButton(tr("Send to server"), this);
  export_ = new QPushButton(tr("Export MSD folder…"), this);
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setEnabled(false);
  auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
  auto* actions = new QHBoxLayout;
  actions->addWidget(check_);
  actions->addWidget(send_);
  actions->addWidget(export_);
  actions->addWidget(cancel_);
  actions->addStretch(1);
  actions->addWidget(close);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(server_);
  layout->addLayout(adds);
  layout->addWidget(table_, 1);
  layout->addWidget(details_);
  layout->addWidget(progress_);
  layout->addWidget(message_);
  layout->addWidget(keepVersion_);
  layout->addWidget(snapshot_);
  layout->addLayout(actions);
  resize(900, 520);

  connect(close, &QDialogButtonBox::rejected, this, &QDialog::hide);
  connect(addFolder_, &QPushButton::clicked, this, &DatasetUploadDialog::chooseFolder);
  connect(addImage_, &QPushButton::clicked, this, &DatasetUploadDialog::chooseImage);
  connect(addOpen_, &QPushButton::clicked, this, &DatasetUploadDialog::openImageRequested);
  connect(addStudy_, &QPushButton::clicked, this, &DatasetUploadDialog::studySeriesRequested);
  connect(remove_, &QPushButton::clicked, this, &DatasetUploadDialog::removeSelected);
  connect(check_, &QPushButton::clicked, this, &DatasetUploadDialog::check);
  connect(send_, &QPushButton::clicked, this, &DatasetUploadDialog::send);
  connect(export_, &QPushButton::clicked, this, &DatasetUploadDialog::chooseExportFolder);
  connect(cancel_, &QPushButton::clicked, this, &DatasetUploadDialog::cancel);
  connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
    updateDetails();
    updateButtons();
  });
  connect(jobs_, &JobRunner::started, this, [this](const QString& title) {
    progress_->setValue(0);
    progress_->show();
    message_->setStyleSheet(QString());
    message_->setText(title);
    updateButtons();
  });
  connect(jobs_, &JobRunner::progress, this, [this](double fraction, const QString& stage) {
    progress_->setValue(static_cast<int>(fraction * 1000));
    if (!stage.isEmpty()) {
      message_->setText(jobs_->title() + QStringLiteral(" — ") + stage);
    }
  });
  connect(jobs_, &JobRunner::finished, this, [this] {
    progress_->hide();
    updateButtons();
  });
  connect(ai_, &AiController::statusChanged, this, &DatasetUploadDialog::updateServer);
  connect(ai_, &AiController::modelsChanged, this, &DatasetUploadDialog::updateServer);
  updateServer();
  updateTable();
}

DatasetUploadDialog::~DatasetUploadDialog() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

DatasetUploadDialog::Destination DatasetUploadDialog::destination() const {
  Destination d;
  const AiController::Backend& b = ai_->backends()[std::size_t(ai_->backendIndex())];
  if (b.url.isEmpty()) {
    return d;  // the built-in engine keeps no datastore
  }
  d.url = b.url;
  d.name = b.name.isEmpty() ? b.url : b.name;
  d.backend = b.backend;
  d.outbound.deidentify = b.deidentify;
  if (b.info) {
    d.connected = true;
    d.schema = annotation::serverLabelSchema(*b.info);
  }
  return d;
}

void DatasetUploadDialog::updateServer() {
  const Destination d = destination();
  if (d.url.isEmpty()) {
    server_->setText(
        tr("No AI server chosen: Check takes the files' label values as they are, "
           "and Export writes an MSD folder. To send, choose a server in the AI "
           "panel."));
  } else if (!d.connected) {
    server_->setText(tr("Server <b>%1</b> has not answered yet: Check and Send wait for its "
                        "labels (AI panel).")
                         .arg(d.name.toHtmlEscaped()));
  } else {
    QStringList names;
    for (const auto& l : d.schema) {
      names << QStringLiteral("%1 (%2)").arg(QString::fromStdString(l.name)).arg(l.value);
    }
    server_->setText(tr("Server <b>%1</b> — its labels: %2")
                         .arg(d.name.toHtmlEscaped(),
                              names.isEmpty() ? tr("none declared")
                                              : names.join(QStringLiteral(", ")).toHtmlEscaped()));
  }
  updateButtons();
}

void DatasetUploadDialog::fail(const QString& message) {
  message_->setStyleSheet(QStringLiteral("color: #b00020;"));
  message_->setText(message);
}

void DatasetUploadDialog::chooseFolder() {
  if (!interactive_) {
    return;
  }
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder of labelled cases"));
  if (!folder.isEmpty()) {
    addFolder(folder);
  }
}

void DatasetUploadDialog::chooseImage() {
  if (!interactive_) {
    return;
  }
  const QString image = QFileDialog::getOpenFileName(
      this, tr("Image of the case"), {},
      tr("Volumes (*.nii *.nii.gz *.nrrd *.nhdr *.mha *.mhd);;All files (*)"));
  if (image.isEmpty()) {
    return;
  }
  const QStringList labels = QFileDialog::getOpenFileNames(
      this, tr("Label files of %1").arg(QFileInfo(image).fileName()), QFileInfo(image).path(),
      tr("Volumes (*.nii *.nii.gz *.nrrd *.nhdr *.mha *.mhd);;All files (*)"));
  up::DatasetCase c{image.toStdString(), {}};
  for (const QString& l : labels) {
    c.labels.emplace_back(l.toStdString());
  }
  addCases({c});
}

void DatasetUploadDialog::chooseExportFolder() {
  if (!interactive_) {
    return;
  }
  const QString folder =
      QFileDialog::getExistingDirectory(this, tr("Folder for the MSD dataset (e.g. Task01_Name)"));
  if (!folder.isEmpty()) {
    exportTo(folder);
  }
}

void DatasetUploadDialog::addFolder(const QString& folder) {
  const fs::path path = folder.toStdString();
  jobs_->run<std::vector<up::DatasetCase>>(
      tr("Looking for cases in %1").arg(folder),
      [path](core::ProgressSink&) { return up::findDatasetCases(path); },
      [this, folder](std::vector<up::DatasetCase> cases) {
        if (!folders_.contains(folder)) {
          folders_ << folder;
        }
        addCases(cases);
        message_->setText(tr("%n case(s) found.", nullptr, static_cast<int>(cases.size())));
      },
      [this](const QString& error, bool cancelled) {
        if (!cancelled) {
          fail(error);
        }
      });
}

void DatasetUploadDialog::addSeries(const core::DicomScanResult& scan,
                                    const std::vector<std::size_t>& picked) {
  jobs_->run<std::vector<up::DatasetCase>>(
      tr("Reading the picked series' segmentations"),
      [scan, picked](core::ProgressSink& progress) {
        return up::casesFromSeries(scan, picked, progress);
      },
      [this](std::vector<up::DatasetCase> cases) {
        addCases(cases);
        int labelled = 0;
        for (const up::DatasetCase& c : cases) {
          labelled += c.labels.empty() ? 0 : 1;
        }
        message_->setText(tr("%n case(s) from the study browser, %1 with a segmentation.", nullptr,
                             static_cast<int>(cases.size()))
                              .arg(labelled));
      },
      [this](const QString& error, bool cancelled) {
        if (!cancelled) {
          fail(error);
        }
      });
}

void DatasetUploadDialog::addCases(const std::vector<up::DatasetCase>& cases) {
  for (const up::DatasetCase& c : cases) {
    const bool known = std::any_of(rows_.begin(), rows_.end(),
                                   [&](const Row& r) { return r.picked.image == c.image; });
    if (!known) {
      rows_.push_back({c, {}, {}, false, {}});
    }
  }
  updateTable();
}

void DatasetUploadDialog::removeSelected() {
  if (jobs_->busy()) {
    return;  // a job works on the rows as they are
  }
  const std::vector<int> selected = table_->selectedRows();
  std::vector<Row> kept;
  for (int i = 0; i < static_cast<int>(rows_.size()); ++i) {
    if (!std::binary_search(selected.begin(), selected.end(), i)) {
      kept.push_back(std::move(rows_[std::size_t(i)]));
    }
  }
  rows_ = std::move(kept);
  updateTable();
}

std::vector<up::DatasetCase> DatasetUploadDialog::pickedCases(std::vector<bool>* skip) const {
  std::vector<up::DatasetCase> cases;
  for (const Row& r : rows_) {
    cases.push_back(r.picked);
    if (skip != nullptr) {
      skip->push_back(r.checked && r.errors() > 0);  // the check said why; nothing to send
    }
  }
  return cases;
}

bool DatasetUploadDialog::check() {
  const Destination d = destination();
  if (!d.url.isEmpty() && !d.connected) {
    fail(tr("%1 has not sent its labels yet: wait until it is connected (AI panel).").arg(d.name));
    return false;
  }
  if (rows_.empty() || jobs_->busy()) {
    return false;
  }
  const std::vector<up::DatasetCase> cases = pickedCases(nullptr);
  up::PrepareOptions options;
  options.schema = d.schema;
  options.outbound = d.outbound;
  const int n = static_cast<int>(cases.size());
  jobs_->run<std::vector<CaseOutcome>>(
      d.url.isEmpty() ? tr("Checking %n case(s)", nullptr, n)
                      : tr("Checking %n case(s) against %1", nullptr, n).arg(d.name),
      [cases, options](core::ProgressSink& progress) {
        return up::checkCases(cases, options, progress);
      },
      [this](std::vector<CaseOutcome> results) {
        applyOutcomes(results);
        int bad = 0;
        for (const Row& r : rows_) {
          bad += r.errors() > 0 ? 1 : 0;
        }
        message_->setText(bad == 0
                              ? tr("Every case passes the check.")
                              : tr("%n case(s) have errors and will not be sent.", nullptr, bad));
      },
      [this](const QString& error, bool cancelled) {
        cancelled ? message_->setText(tr("Check cancelled.")) : fail(error);
      });
  return true;
}

void DatasetUploadDialog::applyOutcomes(const std::vector<CaseOutcome>& results) {
  for (const CaseOutcome& c : results) {
    if (c.index >= rows_.size()) {
      continue;
    }
    Row& row = rows_[c.index];
    row.id = c.id;
    row.findings = c.findings;
    row.checked = true;
    switch (c.result) {
      case CaseOutcome::Result::Checked:
        break;
      case CaseOutcome::Result::Queued:
        row.outcome = tr("queued");
        break;
      case CaseOutcome::Result::Replaced:
        row.outcome = tr("queued (replaces)");
        break;
      case CaseOutcome::Result::AlreadyQueued:
        row.outcome = tr("already queued");
        break;
      case CaseOutcome::Result::Written:
        row.outcome = tr("written");
        break;
      case CaseOutcome::Result::Refused:
        row.outcome = tr("held back: see the check");
        break;
    }
  }
  updateTable();
}

bool DatasetUploadDialog::send() {
  const Destination d = destination();
  if (d.url.isEmpty() || !d.backend) {
    fail(tr("Sending needs an AI server: choose one in the AI panel (or use Export MSD folder)."));
    return false;
  }
  if (!d.connected) {
    fail(tr("%1 has not sent its labels yet: wait until it is connected (AI panel).").arg(d.name));
    return false;
  }
  if (rows_.empty() || jobs_->busy()) {
    return false;
  }
  std::vector<bool> skip;
  const std::vector<up::DatasetCase> cases = pickedCases(&skip);
  up::PrepareOptions options;
  options.schema = d.schema;
  options.outbound = d.outbound;
  const fs::path folder = up::defaultQueueFolder(d.url.toStdString());
  // Each folder the cases came from is kept as a snapshot first: what was sent can be named,
  // diffed and checked out later (docs/datasets.md).
  std::vector<fs::path> versioned;
  if (keepVersion_->isChecked()) {
    for (const QString& f : folders_) {
      versioned.push_back(f.toStdString());
    }
  }
  struct Sent {
    std::vector<std::pair<std::string, std::string>> snapshots;  // folder, id
    std::vector<CaseOutcome> outcomes;
  };
  const std::string message = "sent to " + d.url.toStdString();
  jobs_->run<Sent>(
      tr("Queueing cases for %1").arg(d.name),
      [cases, skip, options, folder, versioned, message](core::ProgressSink& progress) {
        Sent sent;
        core::SubProgress versioning(progress, 0, versioned.empty() ? 0 : 0.3);
        sent.snapshots = core::dataset::snapshotEach(versioned, message, versioning);
        core::SubProgress queueing(progress, versioned.empty() ? 0 : 0.3, 1);
        sent.outcomes = up::queueCases(cases, skip, options, folder, queueing);
        return sent;
      },
      [this, d](Sent sent) {
        applyOutcomes(sent.outcomes);
        int queued = 0;
        for (const CaseOutcome& c : sent.outcomes) {
          queued +=
              c.result == CaseOutcome::Result::Queued || c.result == CaseOutcome::Result::Replaced
                  ? 1
                  : 0;
        }
        message_->setText(
            tr("%n case(s) queued for %1; the upload queue shows them being sent.", nullptr, queued)
                .arg(d.name));
        QStringList ids, lines;
        for (const auto& [f, id] : sent.snapshots) {
          ids << QString::fromStdString(id);
          lines << tr("Sent snapshot %1 of %2")
                       .arg(QString::fromStdString(id.substr(0, 12)), QString::fromStdString(f));
        }
        snapshot_->setText(lines.join(QLatin1Char('\n')));
        snapshot_->setToolTip(ids.join(QLatin1Char('\n')));
        if (!ids.isEmpty()) {
          uploads_->setSentSnapshots(d.url, ids);
        }
        uploads_->watch(d.url, d.name, d.backend);
        uploads_->send();
      },
      [this, d](const QString& error, bool cancelled) {
        // Cases queued before the stop stay queued: the queue is on disk.
        cancelled ? message_->setText(tr("Cancelled; the cases queued so far stay in the queue."))
                  : fail(error);
        uploads_->watch(d.url, d.name, d.backend);
      });
  return true;
}

bool DatasetUploadDialog::exportTo(const QString& folder) {
  if (rows_.empty() || jobs_->busy()) {
    return false;
  }
  const Destination d = destination();
  std::vector<bool> skip;
  const std::vector<up::DatasetCase> cases = pickedCases(&skip);
  up::PrepareOptions options;
  options.schema = d.schema;
  options.outbound = d.outbound;
  const fs::path out = folder.toStdString();
  jobs_->run<std::vector<CaseOutcome>>(
      tr("Writing the MSD dataset %1").arg(folder),
      [cases, skip, options, out](core::ProgressSink& progress) {
        return up::exportCases(cases, skip, options, out, progress);
      },
      [this, folder](std::vector<CaseOutcome> results) {
        applyOutcomes(results);
        int written = 0;
        for (const CaseOutcome& c : results) {
          written += c.result == CaseOutcome::Result::Written ? 1 : 0;
        }
        message_->setText(tr("%n case(s) written to %1.", nullptr, written).arg(folder));
      },
      [this](const QString& error, bool cancelled) {
        cancelled ? message_->setText(tr("Export cancelled; the cases written so far form a "
                                         "valid, smaller dataset."))
                  : fail(error);
      });
  return true;
}

void DatasetUploadDialog::cancel() {
  jobs_->cancel();
}

bool DatasetUploadDialog::busy() const {
  return jobs_->busy();
}

void DatasetUploadDialog::updateTable() {
  table_->showRows(rows_);
  updateDetails();
  updateButtons();
}

void DatasetUploadDialog::updateDetails() {
  details_->setPlainText(table_->details(rows_));
}

void DatasetUploadDialog::updateButtons() {
  const bool busy = jobs_->busy();
  const bool any = !rows_.empty();
  const Destination d = destination();
  addFolder_->setEnabled(!busy);
  addImage_->setEnabled(!busy);
  addStudy_->setEnabled(!busy);
  addOpen_->setEnabled(!busy);
  remove_->setEnabled(!busy && !table_->selectedItems().isEmpty());
  check_->setEnabled(!busy && any && (d.url.isEmpty() || d.connected));
  send_->setEnabled(!busy && any && d.connected);
  send_->setToolTip(d.url.isEmpty()
                        ? tr("Choose an AI server in the AI panel first")
                        : tr("Queue the cases that pass and send them to %1").arg(d.name));
  export_->setEnabled(!busy && any);
  cancel_->setEnabled(busy);
}

}  // namespace delineate::app
