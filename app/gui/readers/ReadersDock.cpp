#include "app/gui/readers/ReadersDock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "app/gui/editing/EditSession.h"
#include "app/gui/readers/AgreementHeatMap.h"
#include "app/gui/readers/ReadersController.h"
#include "app/gui/shell/JobProgressWidget.h"

namespace delineate::app {

ReadersDock::ReadersDock(ReadersController* controller, EditSession* session, QWidget* parent)
    : QWidget(parent), controller_(controller), session_(session) {
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(tr("Readers' label maps (tick two or more):")));
  readers_ = new QListWidget;
  readers_->setObjectName(QStringLiteral("readerList"));
  readers_->setMaximumHeight(110);
  layout->addWidget(readers_);
  auto* structureRow = new QHBoxLayout;
  structureRow->addWidget(new QLabel(tr("Structure:")));
  structure_ = new QComboBox;
  structure_->setObjectName(QStringLiteral("readerStructure"));
  structureRow->addWidget(structure_, 1);
  compare_ = new QPushButton(tr("Compare readers"));
  compare_->setObjectName(QStringLiteral("compareReaders"));
  structureRow->addWidget(compare_);
  layout->addLayout(structureRow);
  layout->addWidget(new JobProgressWidget(controller_->runner()));

  summary_ = new QLabel;
  summary_->setWordWrap(true);
  layout->addWidget(summary_);
  heatMap_ = new AgreementHeatMap;
  heatMap_->setObjectName(QStringLiteral("agreementHeatMap"));
  layout->addWidget(heatMap_);
  overlay_ = new QCheckBox(tr("Show the votes on the slices"));
  overlay_->setChecked(true);
  mapsHidden_ = new QCheckBox(tr("Hide the label maps under them"));
  mapsHidden_->setChecked(true);
  layout->addWidget(overlay_);
  layout->addWidget(mapsHidden_);
  sideBySide_ = new QPushButton(tr("Show the readers side by side"));
  sideBySide_->setObjectName(QStringLiteral("showSideBySide"));
  sideBySide_->setToolTip(
      tr("Each reader's version of the structure in its own tile, below the "
         "views, on the slice through the cursor"));
  layout->addWidget(sideBySide_);

  auto* regions = new QGroupBox(tr("Disagreement regions"));
  auto* regionLayout = new QVBoxLayout(regions);
  region_ = new QLabel;
  region_->setWordWrap(true);
  regionLayout->addWidget(region_);
  auto* stepRow = new QHBoxLayout;
  previous_ = new QPushButton(tr("Previous"));
  next_ = new QPushButton(tr("Next"));
  previous_->setToolTip(tr("The next larger region (Shift+J)"));
  next_->setToolTip(tr("The next smaller region (J)"));
  stepRow->addWidget(previous_);
  stepRow->addWidget(next_);
  regionLayout->addLayout(stepRow);
  layout->addWidget(regions);

  auto* adjudication = new QGroupBox(tr("Adjudication"));
  auto* adjLayout = new QVBoxLayout(adjudication);
  start_ = new QPushButton(tr("Start the adjudicated map (majority vote)"));
  adjLayout->addWidget(start_);
  takeRow_ = new QWidget;
  auto* takeLayout = new QHBoxLayout(takeRow_);
  takeLayout->setContentsMargins(0, 0, 0, 0);
  adjLayout->addWidget(takeRow_);
  auto* signRow = new QHBoxLayout;
  signRow->addWidget(new QLabel(tr("Reviewer:")));
  reviewer_ = new QLineEdit(QString::fromLocal8Bit(qgetenv("USER")));
  reviewer_->setObjectName(QStringLiteral("reviewerName"));
  signRow->addWidget(reviewer_, 1);
  sign_ = new QPushButton(tr("Sign and save"));
  signRow->addWidget(sign_);
  adjLayout->addLayout(signRow);
  layout->addWidget(adjudication);
  message_ = new QLabel;
  message_->setWordWrap(true);
  layout->addWidget(message_);
  layout->addStretch(1);

  connect(readers_, &QListWidget::itemChanged, this, [this] { refreshStructures(); });
  connect(compare_, &QPushButton::clicked, this, [this] {
    QString error;
    const QString structure =
        structure_->currentData().isNull() ? structure_->currentText() : QString();
    if (!controller_->compute(checkedReaders(), structure, &error)) {
      showMessage(error, true);
    }
  });
  connect(overlay_, &QCheckBox::toggled, this,
          [this](bool on) { controller_->setOverlay(on, mapsHidden_->isChecked()); });
  connect(mapsHidden_, &QCheckBox::toggled, this,
          [this](bool on) { controller_->setOverlay(overlay_->isChecked(), on); });
  connect(next_, &QPushButton::clicked, controller_, &ReadersController::nextRegion);
  connect(previous_, &QPushButton::clicked, controller_, &ReadersController::previousRegion);
  connect(start_, &QPushButton::clicked, this, [this] {
    QString error;
    if (!controller_->startAdjudication(&error)) {
      showMessage(error, true);
    }
  });
  connect(sign_, &QPushButton::clicked, this, [this] {
    QString error;
    if (!controller_->sign(reviewer_->text(), &error)) {
      showMessage(error, true);
    }
  });

  connect(controller_, &ReadersController::started, this, [this] { showMessage({}, false); });
  connect(controller_, &ReadersController::computed, this, &ReadersDock::showResult);
  connect(controller_, &ReadersController::regionChanged, this, &ReadersDock::updateState);
  connect(controller_, &ReadersController::adjudicationStarted, this, [this] {
    for (QCheckBox* box : {mapsHidden_, overlay_}) {
      box->blockSignals(true);
    }
    mapsHidden_->setChecked(controller_->mapsHidden());
    overlay_->setChecked(controller_->overlayShown());
    for (QCheckBox* box : {mapsHidden_, overlay_}) {
      box->blockSignals(false);
    }
    showMessage(tr("Adjudicated map started from the majority vote; it is the active map, drawn "
                   "over the readers' (the votes are put away: tick them to see them again). "
                   "Take a reader's version per region or edit it with any tool."),
                false);
    updateState();
  });
  connect(controller_, &ReadersController::regionTaken, this, &ReadersDock::updateState);
  connect(controller_, &ReadersController::signedTo, this, [this](const QString& path) {
    showMessage(tr("Signed; the adjudication record is %1").arg(path), false);
  });
  connect(controller_, &ReadersController::failed, this,
          [this](const QString& m) { showMessage(m, true); });
  connect(session_, &EditSession::labelMapsChanged, this, &ReadersDock::refreshMaps);
  refreshMaps();
  updateState();
}

void ReadersDock::refreshMaps() {
  QStringList ticked, listed;
  for (int i = 0; i < readers_->count(); ++i) {
    listed << readers_->item(i)->text();
    if (readers_->item(i)->checkState() == Qt::Checked) {
      ticked << readers_->item(i)->text();
    }
  }
  // Until the first comparison, every map opened is taken for a reader (untick those that are
  // not); after it, the reviewer's choice stays and new maps (the adjudicated one) come unticked.
  const bool tickNew = controller_->review() == nullptr || ticked.isEmpty();
  readers_->blockSignals(true);
  readers_->clear();
  for (const QString& name : controller_->mapNames()) {
    auto* item = new QListWidgetItem(name, readers_);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    const bool fresh = !listed.contains(name);
    item->setCheckState(ticked.contains(name) || (fresh && tickNew) ? Qt::Checked : Qt::Unchecked);
  }
  readers_->blockSignals(false);
  refreshStructures();
}

void ReadersDock::refreshStructures() {
  const QString current = structure_->currentText();
  structure_->clear();
  const QStringList names = controller_->structures(checkedReaders());
  for (const QString& n : names) {
    structure_->addItem(n);
  }
  if (names.isEmpty()) {
    structure_->addItem(tr("label 1"), 1);  // maps without segment names: by value
  }
  const int keep = structure_->findText(current);
  if (keep >= 0) {
    structure_->setCurrentIndex(keep);
  }
}

void ReadersDock::setReaders(const std::vector<int>& maps) {
  readers_->blockSignals(true);
  for (int i = 0; i < readers_->count(); ++i) {
    const bool on = std::find(maps.begin(), maps.end(), i) != maps.end();
    readers_->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
  }
  readers_->blockSignals(false);
  refreshStructures();
}

std::vector<int> ReadersDock::checkedReaders() const {
  std::vector<int> out;
  for (int i = 0; i < readers_->count(); ++i) {
    if (readers_->item(i)->checkState() == Qt::Checked) {
      out.push_back(i);
    }
  }
  return out;
}

void ReadersDock::showResult() {
  const annotation::ReaderReview* review = controller_->review();
  if (!review) {
    return;
  }
  QStringList names;
  for (const std::string& n : review->names()) {
    names << QString::fromStdString(n);
  }
  heatMap_->setMatrices(names, review->matrices().dice, review->matrices().hd95);
  const double mean = review->matrices().meanPairDice();
  const core::ReaderVotes& votes = review->votes();
  std::size_t all = votes.histogram.empty() ? 0 : votes.histogram.back();
  summary_->setText(
      tr("%1: mean Dice between readers %2. %L3 voxels marked by all %4 readers, %L5 by some "
         "but not all.")
          .arg(QString::fromStdString(review->structure()),
               std::isnan(mean) ? QStringLiteral("–") : QString::number(mean, 'f', 3))
          .arg(qulonglong(all))
          .arg(int(review->names().size()))
          .arg(qulonglong(votes.disagreeing())));
  for (QPushButton* b : take_) {
    delete b;
  }
  take_.clear();
  for (int r = 0; r < int(names.size()); ++r) {
    auto* b = new QPushButton(tr("Take %1").arg(names[r]));
    b->setToolTip(tr("This region as %1 drew it (one undo step)").arg(names[r]));
    takeRow_->layout()->addWidget(b);
    connect(b, &QPushButton::clicked, this, [this, r] {
      QString error;
      if (!controller_->takeReader(r, &error)) {
        showMessage(error, true);
      }
    });
    take_.push_back(b);
  }
  mapsHidden_->blockSignals(true);
  mapsHidden_->setChecked(controller_->mapsHidden());
  mapsHidden_->blockSignals(false);
  updateState();
}

void ReadersDock::updateState() {
  const annotation::ReaderReview* review = controller_->review();
  region_->setText(controller_->regionText());
  const bool have = review != nullptr;
  const bool regions = have && !review->regions().empty();
  next_->setEnabled(regions && review->current() + 1 < int(review->regions().size()));
  previous_->setEnabled(regions && review->current() > 0);
  start_->setEnabled(have);
  const bool adjudicating = controller_->adjudicated() != nullptr;
  for (QPushButton* b : take_) {
    b->setEnabled(adjudicating && review->current() >= 0);
  }
  sign_->setEnabled(have && adjudicating);
  if (!have) {
    heatMap_->clear();
    summary_->clear();
  }
}

void ReadersDock::showMessage(const QString& text, bool error) {
  message_->setText(text);
  message_->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

}  // namespace delineate::app
