#include "app/gui/ai/AiServersPage.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

#include "app/gui/ai/AiController.h"

namespace delineate::app {

namespace {

enum Column { Name, Kind, Deidentify, Status, ColumnCount };

}  // namespace

AiServersPage::AiServersPage(AiController* ai, QWidget* parent)
    : QWidget(parent),
      ai_(ai),
      table_(new QTableWidget(0, ColumnCount, this)),
      kind_(new QComboBox(this)),
      url_(new QLineEdit(this)),
      add_(new QPushButton(tr("Add"), this)),
      remove_(new QPushButton(tr("Remove"), this)),
      apiKey_(new QPushButton(tr("API key…"), this)) {
  setObjectName(QStringLiteral("servers"));
  table_->setObjectName(QStringLiteral("aiServers"));
  table_->setHorizontalHeaderLabels(
      {tr("Server"), tr("Kind"), tr("De-identify before sending"), tr("Status")});
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(Status, QHeaderView::Stretch);
  for (const QString& kind : AiController::serverKinds()) {
    kind_->addItem(AiController::serverKindName(kind), kind);
  }
  url_->setObjectName(QStringLiteral("aiServerUrl"));
  url_->setPlaceholderText(QStringLiteral("https://gpu-box:8000"));
  add_->setObjectName(QStringLiteral("aiServerAdd"));
  remove_->setObjectName(QStringLiteral("aiServerRemove"));
  apiKey_->setObjectName(QStringLiteral("aiServerApiKey"));
  apiKey_->setToolTip(
      tr("The key an nnInteractive server was started with (--api-key); kept in "
         "the system keychain"));
  auto* note = new QLabel(
      tr("Images that may show identifying text in their pixels are never sent to a server with "
         "de-identification on. Changes here apply at once. Sign-in, when a server asks for it, "
         "happens in the AI panel; the refresh token is kept in the system keychain."),
      this);
  note->setWordWrap(true);
  auto* addRow = new QHBoxLayout;
  addRow->addWidget(kind_);
  addRow->addWidget(url_, 1);
  addRow->addWidget(add_);
  addRow->addWidget(remove_);
  addRow->addWidget(apiKey_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_, 1);
  layout->addLayout(addRow);
  layout->addWidget(note);

  connect(add_, &QPushButton::clicked, this, &AiServersPage::addServer);
  connect(url_, &QLineEdit::returnPressed, this, &AiServersPage::addServer);
  connect(url_, &QLineEdit::textChanged, this, &AiServersPage::updateButtons);
  connect(remove_, &QPushButton::clicked, this, &AiServersPage::removeSelected);
  connect(apiKey_, &QPushButton::clicked, this, &AiServersPage::askApiKey);
  connect(table_, &QTableWidget::itemSelectionChanged, this, &AiServersPage::updateButtons);
  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (!rebuilding_ && item->column() == Deidentify) {
      ai_->setDeidentify(item->row(), item->checkState() == Qt::Checked);
    }
  });
  connect(ai_, &AiController::backendsChanged, this, &AiServersPage::rebuild);
  connect(ai_, &AiController::statusChanged, this, &AiServersPage::rebuild);
  rebuild();
}

void AiServersPage::rebuild() {
  rebuilding_ = true;
  const int selected = table_->currentRow();
  const auto& backends = ai_->backends();
  table_->setRowCount(static_cast<int>(backends.size()));
  for (int row = 0; row < table_->rowCount(); ++row) {
    const AiController::Backend& b = backends[std::size_t(row)];
    const bool server = !b.entry.isEmpty();
    auto* name = new QTableWidgetItem(b.name);
    name->setToolTip(b.url);
    auto* kind = new QTableWidgetItem(
        server ? AiController::serverKindName(b.kind.isEmpty() ? b.entry : b.kind)
               : tr("built in, offline"));
    auto* deid = new QTableWidgetItem;
    if (server) {
      deid->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
      deid->setCheckState(b.deidentify ? Qt::Checked : Qt::Unchecked);
    } else {
      deid->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
      deid->setText(tr("nothing leaves the machine"));
    }
    QString status =
        b.status.isEmpty() ? (row == ai_->backendIndex() ? QString() : tr("not asked")) : b.status;
    if (!b.note.isEmpty() && !status.contains(b.note)) {
      status += (status.isEmpty() ? QString() : QStringLiteral("; ")) + b.note;
    }
    table_->setItem(row, Name, name);
    table_->setItem(row, Kind, kind);
    table_->setItem(row, Deidentify, deid);
    table_->setItem(row, Status, new QTableWidgetItem(status));
  }
  table_->resizeColumnsToContents();
  if (selected >= 0 && selected < table_->rowCount()) {
    table_->selectRow(selected);
  }
  rebuilding_ = false;
  updateButtons();
}

void AiServersPage::addServer() {
  const QString url = url_->text().trimmed();
  const QUrl parsed(url, QUrl::StrictMode);
  if (!parsed.isValid() ||
      (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https")) ||
      parsed.host().isEmpty()) {
    url_->setToolTip(tr("Not an http:// or https:// address: %1").arg(url));
    url_->selectAll();
    return;
  }
  const int index = ai_->addServer(url, kind_->currentData().toString());
  url_->clear();
  table_->selectRow(index);
}

void AiServersPage::removeSelected() {
  const int row = table_->currentRow();
  ai_->removeServer(row);
}

void AiServersPage::updateButtons() {
  const int row = table_->currentRow();
  remove_->setEnabled(row > 0 && row < static_cast<int>(ai_->backends().size()) &&
                      !ai_->backends()[std::size_t(row)].entry.isEmpty());
  add_->setEnabled(!url_->text().trimmed().isEmpty() && kind_->count() > 0);
  apiKey_->setEnabled(row > 0 && row < static_cast<int>(ai_->backends().size()) &&
                      AiController::usesApiKey(ai_->backends()[std::size_t(row)].kind));
}

void AiServersPage::askApiKey() {
  const int row = table_->currentRow();
  if (row <= 0 || row >= static_cast<int>(ai_->backends().size())) {
    return;
  }
  bool ok = false;
  const QString key = QInputDialog::getText(
      this, tr("API key"),
      tr("API key of %1 (empty: none):").arg(ai_->backends()[std::size_t(row)].url),
      QLineEdit::Password, {}, &ok);
  if (ok) {
    ai_->setApiKey(row, key.trimmed());
  }
}

}  // namespace delineate::app
