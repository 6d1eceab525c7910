#include "app/gui/upload/UploadQueueView.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "app/gui/upload/UploadController.h"

namespace delineate::app {

namespace up = core::upload;

namespace {

void setCell(QTableWidget* table, int row, int column, const QString& text,
             const QString& tip = {}) {
  QTableWidgetItem* item = table->item(row, column);
  if (item == nullptr) {
    item = new QTableWidgetItem;
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    table->setItem(row, column, item);
  }
  if (item->text() != text) {
    item->setText(text);
  }
  item->setToolTip(tip.isEmpty() ? text : tip);
}

}  // namespace

UploadQueueView::UploadQueueView(UploadController* controller, QWidget* parent)
    : QDialog(parent), controller_(controller) {
  setObjectName(QStringLiteral("uploadQueueView"));
  setWindowTitle(tr("Upload queue"));
  server_ = new QLabel(this);
  server_->setWordWrap(true);
  server_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setHorizontalHeaderLabels({tr("Case"), tr("Picked from"), tr("State"), tr("Progress"),
                                     tr("Attempts"), tr("Size"), tr("Last error")});
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  overall_ = new QProgressBar(this);
  overall_->setRange(0, 1000);
  overall_->setFormat(tr("%p% of this run"));
  stage_ = new QLabel(this);
  stage_->setWordWrap(true);
  note_ = new QLabel(this);
  note_->setWordWrap(true);
  note_->setObjectName(QStringLiteral("uploadNote"));
  note_->setStyleSheet(QStringLiteral("color: #b00020;"));
  note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  pause_ = new QPushButton(tr("Pause"), this);
  pause_->setToolTip(tr("Stop after the request being sent; the queue keeps every item"));
  cancel_ = new QPushButton(tr("Cancel selected"), this);
  cancel_->setToolTip(tr("Remove the selected cases from the queue (nothing more is sent)"));
  retry_ = new QPushButton(tr("Retry failed"), this);
  clear_ = new QPushButton(tr("Clear done"), this);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(pause_);
  buttons->addWidget(cancel_);
  buttons->addWidget(retry_);
  buttons->addWidget(clear_);
  buttons->addStretch(1);
  auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
  buttons->addWidget(close);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(server_);
  layout->addWidget(table_, 1);
  layout->addWidget(overall_);
  layout->addWidget(stage_);
  layout->addWidget(note_);
  layout->addLayout(buttons);
  resize(900, 420);

  connect(close, &QDialogButtonBox::rejected, this, &QDialog::hide);
  connect(pause_, &QPushButton::clicked, this,
          [this] { controller_->paused() ? controller_->resume() : controller_->pause(); });
  connect(cancel_, &QPushButton::clicked, this, &UploadQueueView::cancelSelected);
  connect(retry_, &QPushButton::clicked, controller_, &UploadController::retryFailed);
  connect(clear_, &QPushButton::clicked, controller_, &UploadController::clearDone);
  connect(table_, &QTableWidget::itemSelectionChanged, this, &UploadQueueView::update);
  connect(controller_, &UploadController::changed, this, &UploadQueueView::update);
  update();
}

void UploadQueueView::showEvent(QShowEvent* event) {
  QDialog::showEvent(event);
  controller_->refresh();
}

void UploadQueueView::cancelSelected() {
  QSet<int> rows;
  for (const QTableWidgetItem* item : table_->selectedItems()) {
    rows.insert(item->row());
  }
  for (int row : rows) {
    if (const QTableWidgetItem* id = table_->item(row, IdColumn)) {
      controller_->cancelItem(id->text());
    }
  }
}

void UploadQueueView::update() {
  const QString folder = controller_->queueFolder();
  server_->setText(
      folder.isEmpty()
          ? tr("No AI server chosen: choose one in the AI panel to see its queue.")
          : tr("Sending to <b>%1</b> — queue kept in %2")
                .arg(controller_->serverName().toHtmlEscaped(), folder.toHtmlEscaped()));
  const auto& items = controller_->items();
  table_->setRowCount(static_cast<int>(items.size()));
  const QLocale locale;
  for (int row = 0; row < static_cast<int>(items.size()); ++row) {
    const up::UploadItem& item = items[std::size_t(row)];
    const QString id = QString::fromStdString(item.id);
    const bool sendingThis = controller_->sending() && controller_->sendingId() == id;
    QString state = QString::fromLatin1(up::toString(item.state));
    int percent = item.state == up::UploadState::Done ? 100 : 0;
    if (sendingThis) {
      state = tr("sending");
      percent = static_cast<int>(controller_->itemFraction() * 100);
    } else if (item.state == up::UploadState::Pending && item.attempts > 0) {
      state = tr("pending, retrying");
    }
    if (!sendingThis && item.state == up::UploadState::Pending && item.image.stored) {
      percent = 50;  // the image is on the server, the label not yet
    }
    setCell(table_, row, IdColumn, id);
    const QString source = QString::fromStdString(item.source);
    setCell(table_, row, SourceColumn, QFileInfo(source).fileName(), source);
    setCell(table_, row, StateColumn, state);
    setCell(table_, row, AttemptsColumn, QString::number(item.attempts));
    setCell(table_, row, SizeColumn,
            locale.formattedDataSize(static_cast<qint64>(item.image.size + item.label.size)));
    setCell(table_, row, ProgressColumn, QStringLiteral("%1 %").arg(percent));
    setCell(table_, row, ErrorColumn, QString::fromStdString(item.lastError));
    const QColor tint = item.state == up::UploadState::Failed ? QColor(255, 214, 214)
                        : item.state == up::UploadState::Done ? QColor(214, 240, 214)
                        : sendingThis                         ? QColor(214, 228, 255)
                                                              : QColor();
    for (int c = 0; c < ColumnCount; ++c) {
      table_->item(row, c)->setBackground(tint.isValid() ? QBrush(tint) : QBrush());
      if (tint.isValid()) {
        table_->item(row, c)->setForeground(QBrush(Qt::black));
      }
    }
  }
  table_->resizeColumnsToContents();
  table_->setColumnWidth(SourceColumn, std::min(table_->columnWidth(SourceColumn), 240));
  const up::QueueCounts c = controller_->counts();
  overall_->setVisible(controller_->sending());
  overall_->setValue(static_cast<int>(controller_->overallFraction() * 1000));
  QString stage;
  if (controller_->sending()) {
    stage = controller_->stage();
  } else if (controller_->paused() && c.pending > 0) {
    stage = tr("Paused: %n case(s) wait; Resume sends them.", nullptr, c.pending);
  } else if (c.pending > 0) {
    stage = tr("%n case(s) wait to be sent.", nullptr, c.pending);
  } else if (!items.empty()) {
    stage = tr("Nothing waits: %1 delivered, %2 failed.").arg(c.done).arg(c.failed);
  } else if (!folder.isEmpty()) {
    stage = tr("The queue is empty.");
  }
  stage_->setText(stage);
  note_->setText(controller_->note());
  note_->setVisible(!controller_->note().isEmpty());
  pause_->setText(controller_->paused() ? tr("Resume") : tr("Pause"));
  pause_->setEnabled(!folder.isEmpty() && !items.empty());
  cancel_->setEnabled(!table_->selectedItems().isEmpty());
  retry_->setEnabled(c.failed > 0);
  clear_->setEnabled(c.done > 0);
}

}  // namespace delineate::app
