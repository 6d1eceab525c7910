#include "app/gui/mammo/MammoFindingsPanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace delineate::app {

namespace cm = core::mammo;

namespace {

constexpr int kImageRole = Qt::UserRole;
constexpr int kMarkRole = Qt::UserRole + 1;

QTableWidgetItem* cell(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  return item;
}

}  // namespace

MammoFindingsPanel::MammoFindingsPanel(QWidget* parent)
    : QWidget(parent), header_(new QLabel(this)), table_(new QTableWidget(0, 5, this)) {
  setObjectName(QStringLiteral("mammoFindingsPanel"));
  header_->setWordWrap(true);
  table_->setHorizontalHeaderLabels(
      {tr("View"), tr("Finding"), tr("Score"), tr("P(cancer)"), tr("Shown")});
  table_->horizontalHeaderItem(3)->setToolTip(tr("Probability of cancer, when the AI gives one"));
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(header_);
  layout->addWidget(table_);
  connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
    const QTableWidgetItem* first = table_->item(row, 0);
    if (first != nullptr) {
      Q_EMIT markActivated(first->data(kImageRole).toString(), first->data(kMarkRole).toInt());
    }
  });
}

void MammoFindingsPanel::show(const std::optional<cm::StudyFindings>& findings,
                              const std::function<QString(const std::string&)>& viewName,
                              bool optionalShown, bool concealed) {
  table_->setRowCount(0);
  if (!findings) {
    header_->setText(tr("No AI findings."));
    return;
  }
  if (concealed) {
    header_->setText(tr("AI hidden: read first, then reveal the AI."));
    return;
  }
  QString text = QString::fromStdString(findings->source);
  if (!findings->processingSummary.empty()) {
    text += QStringLiteral("\n") + QString::fromStdString(findings->processingSummary);
  }
  for (const std::string& failed : findings->failedAlgorithms) {
    text += tr("\nFAILED: %1").arg(QString::fromStdString(failed));
  }
  if (findings->demonstration) {
    text += tr("\nDEMONSTRATION, NOT A DIAGNOSIS");
  }
  header_->setText(text);
  for (const cm::ImageFindings& image : findings->images) {
    for (std::size_t k = 0; k < image.marks.size(); ++k) {
      const cm::FindingMark& m = image.marks[k];
      if (m.intent == cm::RenderingIntent::NotForPresentation) {
        continue;
      }
      const int row = table_->rowCount();
      table_->insertRow(row);
      QTableWidgetItem* view = cell(viewName(image.imageId));
      view->setData(kImageRole, QString::fromStdString(image.imageId));
      view->setData(kMarkRole, static_cast<int>(k));
      table_->setItem(row, 0, view);
      table_->setItem(row, 1, cell(QString::fromStdString(m.kind)));
      table_->setItem(row, 2, cell(m.scored ? QString::number(m.score, 'f', 2) : QString()));
      table_->setItem(row, 3,
                      cell(m.probability ? QString::number(*m.probability, 'f', 2) : QString()));
      table_->setItem(row, 4,
                      cell(m.intent == cm::RenderingIntent::Optional
                               ? (optionalShown ? tr("optional") : tr("optional, hidden"))
                               : tr("yes")));
    }
  }
  table_->resizeColumnsToContents();
}

}  // namespace delineate::app
