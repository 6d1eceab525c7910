#include "app/gui/pacs/SendToPacsDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <optional>

#include "app/gui/editing/EditSession.h"
#include "app/gui/pacs/DicomWebSecrets.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/gui/shell/JobRunner.h"
#include "app/gui/upload/DeidSettings.h"
#include "core/deid/ReidentificationMap.h"
#include "core/dicomweb/PacsService.h"
#include "core/io/DicomSegWriter.h"
#include "core/model/LabelMap.h"
#include "core/pacs/DeidentifiedStore.h"
#include "core/pacs/DicomNetwork.h"

namespace delineate::app {

namespace {

constexpr int kCopyRetryMs = 300;  // the label map's copy is being brought up to date

QString summary(const core::pacs::DicomNode& node, const core::pacs::StoreReport& report) {
  const QString where = QString::fromStdString(node.label());
  if (report.failedCount() == 0) {
    return SendToPacsDialog::tr("Sent %n file(s) to %1.", nullptr, int(report.files.size()))
        .arg(where);
  }
  QString text = SendToPacsDialog::tr("%1 of %2 files sent to %3; not sent:")
                     .arg(report.storedCount())
                     .arg(report.files.size())
                     .arg(where);
  int listed = 0;
  for (const core::pacs::StoredFile& f : report.files) {
    if (!f.stored && listed++ < 10) {
      text += QStringLiteral("\n• %1: %2")
                  .arg(QString::fromStdString(f.file.filename().string()),
                       QString::fromStdString(f.message));
    }
  }
  if (listed > 10) {
    text += SendToPacsDialog::tr("\n… and %1 more").arg(listed - 10);
  }
  return text;
}

}  // namespace

SendToPacsDialog::SendToPacsDialog(EditSession* session, QWidget* parent)
    : QDialog(parent),
      session_(session),
      nodes_(new QComboBox(this)),
      series_(new QCheckBox(this)),
      seg_(new QCheckBox(this)),
      deidentify_(new QCheckBox(tr("De-identify first (for a research archive)"), this)),
      result_(new QLabel(this)),
      send_(new QPushButton(tr("Send"), this)),
      jobs_(new JobRunner(this)),
      progress_(new JobProgressWidget(jobs_, this)) {
  setObjectName(QStringLiteral("sendToPacsDialog"));
  setWindowTitle(tr("Send to PACS"));
  nodes_->setObjectName(QStringLiteral("pacsNode"));
  send_->setObjectName(QStringLiteral("pacsSend"));
  send_->setDefault(true);
  result_->setObjectName(QStringLiteral("pacsResult"));
  result_->setWordWrap(true);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  auto* form = new QFormLayout;
  form->addRow(tr("To"), nodes_);
  form->addRow(series_);
  form->addRow(seg_);
  form->addRow(deidentify_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  buttons->addButton(send_, QDialogButtonBox::ActionRole);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(progress_);
  layout->addWidget(result_);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(send_, &QPushButton::clicked, this, &SendToPacsDialog::send);
  connect(series_, &QCheckBox::toggled, this, &SendToPacsDialog::updateButtons);
  connect(seg_, &QCheckBox::toggled, this, &SendToPacsDialog::updateButtons);
  deidentify_->setObjectName(QStringLiteral("pacsDeidentify"));
  deidentify_->setToolTip(
      tr("The files are de-identified on this workstation by the options of "
         "Edit > Preferences > De-identification; only the copies are sent"));
  connect(nodes_, &QComboBox::currentIndexChanged, this, &SendToPacsDialog::followNode);
  connect(result_, &QLabel::linkActivated, this, [this] { Q_EMIT nodesWanted(); });
  connect(jobs_, &JobRunner::finished, this, &SendToPacsDialog::updateButtons);
  refresh();
}

SendToPacsDialog::~SendToPacsDialog() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

bool SendToPacsDialog::busy() const {
  return pending_ || jobs_->busy();
}

void SendToPacsDialog::refresh() {
  settings_ = DicomNodeSettings::load();
  const QString chosen = nodes_->currentText();
  nodes_->clear();
  for (const core::pacs::DicomNode& n : settings_.nodes) {
    nodes_->addItem(QString::fromStdString(n.label()));
  }
  nodes_->setCurrentIndex(std::max(0, nodes_->findText(chosen)));
  followNode();
  const core::VolumePtr image = session_->image();
  const std::size_t files = image ? image->info().sourceFiles.size() : 0;
  series_->setText(files > 0 ? tr("The image series (%n file(s))", nullptr, int(files))
                             : tr("The image series (the open image is not from DICOM)"));
  series_->setEnabled(files > 0);
  series_->setChecked(files > 0);
  const auto map = session_->activeMap();
  seg_->setText(
      map ? tr("The label map \"%1\" as DICOM SEG").arg(QString::fromStdString(map->name()))
          : tr("The label map as DICOM SEG (there is none)"));
  seg_->setEnabled(map && files > 0);
  seg_->setChecked(map && files > 0);
  if (settings_.nodes.empty()) {
    result_->setText(tr("No DICOM node is set up: <a href=\"#nodes\">add one in Preferences</a>."));
  } else if (!jobs_->busy()) {
    result_->clear();
  }
  updateButtons();
}

void SendToPacsDialog::followNode() {
  const int index = nodes_->currentIndex();
  deidentify_->setChecked(index >= 0 && index < static_cast<int>(settings_.nodes.size()) &&
                          settings_.nodes[std::size_t(index)].deidentify);
}

void SendToPacsDialog::updateButtons() {
  send_->setEnabled(
      !busy() && nodes_->count() > 0 &&
      ((series_->isEnabled() && series_->isChecked()) || (seg_->isEnabled() && seg_->isChecked())));
}

void SendToPacsDialog::send() {
  const int index = nodes_->currentIndex();
  const core::VolumePtr image = session_->image();
  // (pending_ is this send waiting for the label map's copy: its retry goes on.)
  if (index < 0 || index >= static_cast<int>(settings_.nodes.size()) || !image || jobs_->busy()) {
    pending_ = false;
    updateButtons();
    return;
  }
  const core::pacs::DicomNode node = settings_.nodes[std::size_t(index)];
  std::shared_ptr<const core::LabelMap> copy;
  if (seg_->isEnabled() && seg_->isChecked()) {
    const auto map = session_->activeMap();
    copy = map && map->openEdits() == 0 ? session_->readCopy(*map) : nullptr;
    if (!copy) {
      pending_ = true;  // a send is on its way: busy, the button stays off
      updateButtons();
      result_->setText(tr("Waiting for the label map…"));
      QTimer::singleShot(kCopyRetryMs, this, &SendToPacsDialog::send);
      return;
    }
  }
  std::vector<std::filesystem::path> files;
  if (series_->isEnabled() && series_->isChecked()) {
    for (const std::string& f : image->info().sourceFiles) {
      files.emplace_back(f);
    }
  }
  const std::filesystem::path segFile =
      temp_.isValid() ? std::filesystem::path(temp_.path().toStdString()) /
                            ("seg-" + std::to_string(QDateTime::currentMSecsSinceEpoch()) + ".dcm")
                      : std::filesystem::path();
  std::optional<DeidSettings> deid;
  if (deidentify_->isChecked()) {
    deid = DeidSettings::load();
  }
  const std::filesystem::path work = segFile.parent_path();
  result_->setText(tr("Sending to %1…").arg(QString::fromStdString(node.label())));
  pending_ = true;
  DicomWebSecrets::fetch(node, this, [=, this](std::string secret, const QString& problem) mutable {
    pending_ = false;
    if (!problem.isEmpty()) {
      result_->setText(problem);
      Q_EMIT finished(false, problem);
      updateButtons();
      return;
    }
    sendWith(node, settings_.access(std::move(secret)), std::move(files), copy, image, segFile,
             deid, work);
  });
  updateButtons();
}

void SendToPacsDialog::sendWith(const core::pacs::DicomNode& node, core::pacs::PacsAccess access,
                                std::vector<std::filesystem::path> files,
                                std::shared_ptr<const core::LabelMap> copy, core::VolumePtr image,
                                std::filesystem::path segFile, std::optional<DeidSettings> deid,
                                std::filesystem::path work) {
  jobs_->run<core::pacs::StoreReport>(
      tr("Sending to %1").arg(QString::fromStdString(node.label())),
      [node, access, files, copy, image, segFile, deid,
       work](core::ProgressSink& progress) mutable {
        if (copy) {
          if (segFile.empty()) {
            throw core::Error(core::ErrorKind::Io, "", "no temporary folder for the DICOM SEG");
          }
          core::SubProgress writing(progress, 0, 0.2);
          core::DicomSegOptions seg;
          seg.seriesDescription = copy->name();
          core::writeDicomSeg(*copy, *image, segFile, seg, writing);
          files.push_back(segFile);
        }
        core::SubProgress sending(progress, copy ? 0.2 : 0, 1);
        core::pacs::StoreReport report;
        if (deid) {
          if (work.empty()) {
            throw core::Error(core::ErrorKind::Io, "", "no temporary folder for the copies");
          }
          core::deid::ReidentificationMap map(deid->mapFile());
          report = core::pacs::storeDeidentified(
              files,
              [&](const std::vector<std::filesystem::path>& copies, core::ProgressSink& p) {
                return core::pacs::sendFiles(node, copies, access, p);
              },
              deid->options, map, work, sending);
        } else {
          report = core::pacs::sendFiles(node, files, access, sending);
        }
        std::error_code ignored;
        std::filesystem::remove(segFile, ignored);
        return report;
      },
      [this, node](core::pacs::StoreReport report) {
        const QString text = summary(node, report);
        result_->setText(text);
        Q_EMIT session_->statusMessage(text.section(QLatin1Char('\n'), 0, 0));
        Q_EMIT finished(report.failedCount() == 0, text);
      },
      [this](const QString& error, bool cancelled) {
        const QString text = cancelled ? tr("Cancelled; what was sent stays on the node.") : error;
        result_->setText(text);
        Q_EMIT finished(false, text);
      });
  updateButtons();
}

}  // namespace delineate::app
