#include "app/gui/pacs/DicomNodesPage.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <chrono>

#include "app/gui/pacs/DicomWebNodeDialog.h"
#include "app/gui/pacs/DicomWebSecrets.h"
#include "app/gui/shell/JobRunner.h"

namespace delineate::app {

namespace {

enum Column { Name, AeTitle, Host, Port, Status, Deidentify, ByMove, ColumnCount };

QString text(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace

DicomNodesPage::DicomNodesPage(QWidget* parent)
    : QWidget(parent),
      settings_(DicomNodeSettings::load()),
      table_(new QTableWidget(0, ColumnCount, this)),
      calling_(new QLineEdit(this)),
      storagePort_(new QSpinBox(this)),
      cacheLimit_(new QSpinBox(this)),
      alwaysListen_(new QCheckBox(tr("Listen always"), this)),
      listenerState_(new QLabel(this)),
      add_(new QPushButton(tr("Add"), this)),
      addWeb_(new QPushButton(tr("Add DICOMweb…"), this)),
      remove_(new QPushButton(tr("Remove"), this)),
      verify_(new QPushButton(tr("Verify"), this)),
      jobs_(new JobRunner(this)) {
  setObjectName(QStringLiteral("nodes"));
  table_->setObjectName(QStringLiteral("dicomNodes"));
  table_->setHorizontalHeaderLabels({tr("Name"), tr("AE title"), tr("Host"), tr("Port"),
                                     tr("Status"), tr("De-identify"), tr("C-MOVE")});
  table_->horizontalHeaderItem(ByMove)->setToolTip(
      tr("Retrieve by C-MOVE to this workstation's Storage SCP (for a PACS without C-GET); the "
         "PACS must know this workstation's AE title, address and C-MOVE port"));
  table_->horizontalHeaderItem(Deidentify)
      ->setToolTip(tr("A research archive: what is sent is de-identified first (see the "
                      "De-identification page)"));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(Status, QHeaderView::Stretch);
  table_->horizontalHeader()->setSectionResizeMode(Deidentify, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(ByMove, QHeaderView::ResizeToContents);
  calling_->setObjectName(QStringLiteral("callingAeTitle"));
  calling_->setMaxLength(16);
  calling_->setText(text(settings_.callingAeTitle));
  verify_->setObjectName(QStringLiteral("dicomNodeVerify"));
  verify_->setToolTip(
      tr("Does the node answer and accept this workstation? (C-ECHO, or a "
         "QIDO-RS search with the credentials for a DICOMweb node)"));
  addWeb_->setObjectName(QStringLiteral("dicomNodeAddWeb"));
  addWeb_->setToolTip(tr("A PACS reached over HTTP(S): QIDO-RS, WADO-RS and STOW-RS"));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(add_);
  buttons->addWidget(addWeb_);
  buttons->addWidget(remove_);
  buttons->addStretch(1);
  buttons->addWidget(verify_);
  auto* own = new QFormLayout;
  own->addRow(tr("This workstation's AE title"), calling_);
  storagePort_->setObjectName(QStringLiteral("storagePort"));
  storagePort_->setRange(1, 65535);
  storagePort_->setValue(settings_.storagePort);
  storagePort_->setToolTip(
      tr("Where this workstation listens for the instances a C-MOVE sends (only while the "
         "retrieve runs, unless it listens always)"));
  own->addRow(tr("C-MOVE port"), storagePort_);
  alwaysListen_->setObjectName(QStringLiteral("alwaysListen"));
  alwaysListen_->setChecked(settings_.alwaysListen);
  alwaysListen_->setToolTip(
      tr("Receive what a PACS or a modality sends to this AE title and port at any time, into "
         "the study cache"));
  listenerState_->setObjectName(QStringLiteral("listenerState"));
  listenerState_->setWordWrap(true);
  own->addRow(tr("Storage SCP"), alwaysListen_);
  own->addRow(QString(), listenerState_);
  cacheLimit_->setObjectName(QStringLiteral("cacheLimit"));
  cacheLimit_->setRange(1, 100000);
  cacheLimit_->setSuffix(tr(" GB"));
  cacheLimit_->setValue(settings_.cacheLimitGb);
  cacheLimit_->setToolTip(
      tr("Retrieved studies are kept for opening again; beyond this size the "
         "ones used longest ago are removed"));
  own->addRow(tr("Study cache limit"), cacheLimit_);
  auto* note = new QLabel(tr("File > Query PACS searches and retrieves from these nodes; File > "
                             "Send to PACS sends the open series and its segmentation (DICOM "
                             "SEG) to one of them. A DIMSE node must know this workstation's AE "
                             "title and address. Mark a research archive \"De-identify\": what "
                             "goes there is de-identified first."),
                          this);
  note->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);
  layout->addLayout(own);
  layout->addWidget(note);

  connect(add_, &QPushButton::clicked, this, [this] {
    settings_.nodes.push_back({tr("New node").toStdString(), "PACS", "localhost", 104});
    settings_.save();
    rebuild();
    table_->selectRow(table_->rowCount() - 1);
    Q_EMIT nodesChanged();
  });
  connect(addWeb_, &QPushButton::clicked, this, [this] { editWebNode(-1); });
  connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    if (row >= 0 && row < static_cast<int>(settings_.nodes.size()) &&
        settings_.nodes[std::size_t(row)].isDicomWeb()) {
      editWebNode(row);
    }
  });
  connect(remove_, &QPushButton::clicked, this, [this] {
    const int row = table_->currentRow();
    if (row < 0 || row >= static_cast<int>(settings_.nodes.size())) {
      return;
    }
    if (settings_.nodes[std::size_t(row)].isDicomWeb()) {
      DicomWebSecrets::forget(settings_.nodes[std::size_t(row)]);
    }
    settings_.nodes.erase(settings_.nodes.begin() + row);
    settings_.save();
    rebuild();
    Q_EMIT nodesChanged();
  });
  connect(verify_, &QPushButton::clicked, this, &DicomNodesPage::verifySelected);
  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (!rebuilding_ && item->column() != Status) {
      readRow(item->row());
    }
  });
  connect(table_, &QTableWidget::itemSelectionChanged, this, &DicomNodesPage::updateButtons);
  connect(cacheLimit_, &QSpinBox::valueChanged, this, [this](int gb) {
    settings_.cacheLimitGb = gb;
    settings_.save();
  });
  connect(storagePort_, &QSpinBox::valueChanged, this, [this](int port) {
    settings_.storagePort = port;
    settings_.save();
    Q_EMIT listenerChanged();
  });
  connect(alwaysListen_, &QCheckBox::toggled, this, [this](bool on) {
    settings_.alwaysListen = on;
    settings_.save();
    Q_EMIT listenerChanged();
  });
  connect(calling_, &QLineEdit::editingFinished, this, [this] {
    const std::string title = calling_->text().trimmed().toStdString();
    if (const auto problem = core::pacs::aeTitleProblem(title)) {
      calling_->setToolTip(text(*problem));
      calling_->setText(text(settings_.callingAeTitle));
      return;
    }
    calling_->setToolTip(QString());
    if (title != settings_.callingAeTitle) {
      settings_.callingAeTitle = title;
      settings_.save();
      Q_EMIT listenerChanged();
    }
  });
  rebuild();
}

void DicomNodesPage::setListenerState(const QString& text) {
  listenerState_->setText(text);
}

bool DicomNodesPage::busy() const {
  return jobs_->busy();
}

void DicomNodesPage::rebuild() {
  rebuilding_ = true;
  table_->setRowCount(static_cast<int>(settings_.nodes.size()));
  for (int row = 0; row < table_->rowCount(); ++row) {
    const core::pacs::DicomNode& n = settings_.nodes[std::size_t(row)];
    table_->setItem(row, Name, new QTableWidgetItem(text(n.name)));
    if (n.isDicomWeb()) {  // edited in its dialog: these cells only say where it is
      const QString tip = tr("A DICOMweb node: double-click to edit");
      for (const auto& [column, value] :
           {std::pair{AeTitle, tr("DICOMweb")}, {Host, text(n.dicomWebUrl)}, {Port, QString()}}) {
        auto* item = new QTableWidgetItem(value);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        item->setToolTip(tip);
        table_->setItem(row, column, item);
      }
    } else {
      table_->setItem(row, AeTitle, new QTableWidgetItem(text(n.aeTitle)));
      table_->setItem(row, Host, new QTableWidgetItem(text(n.host)));
      table_->setItem(row, Port, new QTableWidgetItem(QString::number(n.port)));
    }
    auto* status = new QTableWidgetItem(n.problem() ? text(*n.problem()) : tr("not verified"));
    status->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    table_->setItem(row, Status, status);
    auto* deidentify = new QTableWidgetItem;
    deidentify->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    deidentify->setCheckState(n.deidentify ? Qt::Checked : Qt::Unchecked);
    table_->setItem(row, Deidentify, deidentify);
    auto* byMove = new QTableWidgetItem;
    byMove->setFlags(n.isDicomWeb()
                         ? Qt::ItemIsSelectable
                         : Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    byMove->setCheckState(n.retrieveByMove ? Qt::Checked : Qt::Unchecked);
    table_->setItem(row, ByMove, byMove);
  }
  rebuilding_ = false;
  updateButtons();
}

void DicomNodesPage::readRow(int row) {
  if (row < 0 || row >= static_cast<int>(settings_.nodes.size())) {
    return;
  }
  core::pacs::DicomNode& n = settings_.nodes[std::size_t(row)];
  auto cell = [this, row](int column) {
    const QTableWidgetItem* item = table_->item(row, column);
    return item ? item->text().trimmed().toStdString() : std::string();
  };
  n.name = cell(Name);
  const QTableWidgetItem* deidentify = table_->item(row, Deidentify);
  n.deidentify = deidentify != nullptr && deidentify->checkState() == Qt::Checked;
  if (n.isDicomWeb()) {
    settings_.save();
    Q_EMIT nodesChanged();
    return;
  }
  n.aeTitle = cell(AeTitle);
  n.host = cell(Host);
  const QTableWidgetItem* byMove = table_->item(row, ByMove);
  n.retrieveByMove = byMove != nullptr && byMove->checkState() == Qt::Checked;
  bool ok = false;
  n.port = QString::fromStdString(cell(Port)).toInt(&ok);
  if (!ok) {
    n.port = 0;
  }
  settings_.save();
  setStatus(row, n.problem() ? text(*n.problem()) : tr("not verified"));
  updateButtons();
  Q_EMIT nodesChanged();
}

void DicomNodesPage::setStatus(int row, const QString& status) {
  rebuilding_ = true;
  if (QTableWidgetItem* item = table_->item(row, Status)) {
    item->setText(status);
    item->setToolTip(status);
  }
  rebuilding_ = false;
}

void DicomNodesPage::verifySelected() {
  const int row = table_->currentRow();
  if (row < 0 || row >= static_cast<int>(settings_.nodes.size())) {
    return;
  }
  const core::pacs::DicomNode node = settings_.nodes[std::size_t(row)];
  setStatus(row, tr("verifying…"));
  verify_->setEnabled(false);
  DicomWebSecrets::fetch(node, this, [this, row, node](std::string secret, QString problem) {
    if (!problem.isEmpty()) {
      setStatus(row, problem);
      updateButtons();
      return;
    }
    verifyWith(row, node, std::move(secret));
  });
}

void DicomNodesPage::verifyWith(int row, const core::pacs::DicomNode& node, std::string secret) {
  core::pacs::PacsAccess access = settings_.access(std::move(secret));
  // An echo is answered at once by a node that works: a verify waits 10 s, not a transfer's 60.
  access.dimse.responseTimeout = std::chrono::seconds(10);
  jobs_->run<double>(
      tr("Verifying %1").arg(text(node.label())),
      [node, access](core::ProgressSink& progress) {
        return core::pacs::verifyNode(node, access, progress);
      },
      [this, row](double ms) {
        setStatus(row, tr("verified: answered in %1 ms").arg(ms, 0, 'f', 0));
        updateButtons();
      },
      [this, row](const QString& error, bool cancelled) {
        setStatus(row, cancelled ? tr("not verified") : error);
        updateButtons();
      });
}

void DicomNodesPage::updateButtons() {
  const int row = table_->currentRow();
  const bool selected = row >= 0 && row < static_cast<int>(settings_.nodes.size());
  remove_->setEnabled(selected);
  verify_->setEnabled(selected && !jobs_->busy() && !settings_.nodes[std::size_t(row)].problem());
}

void DicomNodesPage::editWebNode(int row) {
  const bool adding = row < 0 || row >= static_cast<int>(settings_.nodes.size());
  core::pacs::DicomNode start;
  if (adding) {
    start.name = tr("DICOMweb PACS").toStdString();
    start.dicomWebUrl = "https://";
  } else {
    start = settings_.nodes[std::size_t(row)];
  }
  auto* dialog = new DicomWebNodeDialog(start, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this, [this, dialog, row, adding, start] {
    const core::pacs::DicomNode node = dialog->node();
    const std::string secret = dialog->secret();
    if (!adding && start.dicomWebUrl != node.dicomWebUrl) {
      DicomWebSecrets::forget(start);
    }
    if (!secret.empty()) {
      DicomWebSecrets::remember(node, secret);
    }
    if (adding) {
      settings_.nodes.push_back(node);
    } else {
      settings_.nodes[std::size_t(row)] = node;
    }
    settings_.save();
    rebuild();
    table_->selectRow(adding ? table_->rowCount() - 1 : row);
    Q_EMIT nodesChanged();
  });
  dialog->open();
}

}  // namespace delineate::app
