#include "app/gui/annotator/AnnotatorLoopDock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/gui/annotator/AnnotatorLoop.h"
#include "app/gui/annotator/TrainingChart.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/gui/shell/JobRunner.h"

namespace delineate::app {

namespace {

// Replaces a combo's items when they changed, keeping the chosen one.
void setItems(QComboBox* combo, const QStringList& items) {
  QStringList now;
  for (int i = 0; i < combo->count(); ++i) {
    now << combo->itemText(i);
  }
  if (now == items) {
    return;
  }
  const QString chosen = combo->currentText();
  combo->clear();
  combo->addItems(items);
  if (items.contains(chosen)) {
    combo->setCurrentText(chosen);
  }
}

}  // namespace

AnnotatorLoopDock::AnnotatorLoopDock(AnnotatorLoop* loop, QWidget* parent)
    : QWidget(parent), loop_(loop) {
  setObjectName(QStringLiteral("annotatorLoopPanel"));
  server_ = new QLabel(this);
  server_->setWordWrap(true);

  auto* sampleBox = new QGroupBox(tr("Next sample"), this);
  strategy_ = new QComboBox(sampleBox);
  strategy_->setToolTip(
      tr("How the server chooses the next image (its active-learning "
         "strategies)"));
  original_ = new QCheckBox(tr("Load the server's original label"), sampleBox);
  original_->setToolTip(
      tr("Also open the label the server stored under the tag 'original' "
         "(e.g. a model's pre-segmentation), when it has one"));
  readers_ = new QCheckBox(tr("Load the readers' labels"), sampleBox);
  readers_->setObjectName(QStringLiteral("loadReaders"));
  readers_->setToolTip(
      tr("Also open every reader's label of the image the server holds (tags 'reader-…'), each "
         "as its own label map named after its reader: compare and adjudicate them in Analysis > "
         "Readers and adjudication, then submit the result as the final label"));
  next_ = new QPushButton(tr("Next sample"), sampleBox);
  sample_ = new QLabel(sampleBox);
  sample_->setObjectName(QStringLiteral("sampleLabel"));
  sample_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* sampleForm = new QFormLayout(sampleBox);
  sampleForm->addRow(tr("Strategy"), strategy_);
  sampleForm->addRow(original_);
  sampleForm->addRow(readers_);
  sampleForm->addRow(next_);
  sampleForm->addRow(tr("Image"), sample_);

  auto* submitBox = new QGroupBox(tr("Submit label"), this);
  submit_ = new QPushButton(tr("Submit label"), submitBox);
  submit_->setToolTip(tr("Store the active label map on the server as the image's final label"));
  trainAfterSubmit_ = new QCheckBox(tr("Start training after submitting"), submitBox);
  submitReading_ = new QPushButton(submitBox);
  submitReading_->setObjectName(QStringLiteral("submitReading"));
  submitReading_->setToolTip(
      tr("Store the active label map on the server as your own reading of the image, beside the "
         "other readers' (the final label is left as it is)"));
  auto* submitLayout = new QVBoxLayout(submitBox);
  submitLayout->addWidget(submit_);
  submitLayout->addWidget(trainAfterSubmit_);
  submitLayout->addWidget(submitReading_);

  auto* trainBox = new QGroupBox(tr("Training"), this);
  trainer_ = new QComboBox(trainBox);
  startTraining_ = new QPushButton(tr("Start training"), trainBox);
  stopTraining_ = new QPushButton(tr("Stop training"), trainBox);
  training_ = new QLabel(trainBox);
  training_->setObjectName(QStringLiteral("trainingLabel"));
  training_->setWordWrap(true);
  chart_ = new TrainingChart(trainBox);
  auto* trainButtons = new QHBoxLayout;
  trainButtons->addWidget(startTraining_);
  trainButtons->addWidget(stopTraining_);
  auto* trainLayout = new QFormLayout(trainBox);
  trainLayout->addRow(tr("Trainer"), trainer_);
  trainLayout->addRow(trainButtons);
  trainLayout->addRow(training_);
  trainLayout->addRow(chart_);

  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("loopMessage"));
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  progress_ = new JobProgressWidget(loop_->jobs(), this);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(server_);
  layout->addWidget(sampleBox);
  layout->addWidget(submitBox);
  layout->addWidget(trainBox, 1);
  layout->addWidget(message_);
  layout->addWidget(progress_);

  connect(next_, &QPushButton::clicked, this,
          [this] { loop_->nextSample(strategy_->currentText()); });
  connect(original_, &QCheckBox::toggled, this, [this](bool on) { loop_->setLoadOriginal(on); });
  connect(readers_, &QCheckBox::toggled, this, [this](bool on) { loop_->setLoadReaders(on); });
  connect(submitReading_, &QPushButton::clicked, loop_, &AnnotatorLoop::submitReading);
  connect(submit_, &QPushButton::clicked, this,
          [this] { loop_->submit(trainAfterSubmit_->isChecked(), trainer_->currentText()); });
  connect(startTraining_, &QPushButton::clicked, this,
          [this] { loop_->startTraining(trainer_->currentText()); });
  connect(stopTraining_, &QPushButton::clicked, loop_, &AnnotatorLoop::stopTraining);
  connect(loop_, &AnnotatorLoop::changed, this, &AnnotatorLoopDock::update);
  connect(loop_, &AnnotatorLoop::trainingChanged, this, &AnnotatorLoopDock::updateTraining);
  connect(loop_, &AnnotatorLoop::message, this, [this](const QString& m) { showMessage(m); });
  connect(loop_, &AnnotatorLoop::failed, this, [this](const QString& m) { showMessage(m, true); });
  update();
  updateTraining();
}

void AnnotatorLoopDock::showMessage(const QString& text, bool error) {
  message_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
  message_->setText(text);
}

void AnnotatorLoopDock::update() {
  const bool server = loop_->server() != nullptr;
  server_->setText(server ? tr("Server: %1").arg(loop_->serverName())
                          : tr("No AI server: add or choose one in the AI panel (%1 is not a "
                               "connected server).")
                                .arg(loop_->serverName()));
  setItems(strategy_, loop_->strategies());
  setItems(trainer_, loop_->trainers());
  const bool busy = loop_->busy();
  const bool running = loop_->trainStatus() && loop_->trainStatus()->running;
  next_->setEnabled(server && strategy_->count() > 0 && !busy);
  submit_->setEnabled(server && !loop_->sampleId().isEmpty() && !busy);
  submitReading_->setEnabled(submit_->isEnabled());
  submitReading_->setText(tr("Submit as %1's reading").arg(loop_->readerName()));
  trainAfterSubmit_->setEnabled(trainer_->count() > 0);
  startTraining_->setEnabled(server && trainer_->count() > 0 && !loop_->jobs()->busy() && !running);
  stopTraining_->setEnabled(server && running && !loop_->jobs()->busy());
  sample_->setText(loop_->sampleId().isEmpty() ? tr("(none: press Next sample)")
                                               : loop_->sampleId());
}

void AnnotatorLoopDock::updateTraining() {
  const auto& status = loop_->trainStatus();
  const auto stats = loop_->trainStats();
  if (!status || status->state.empty()) {
    training_->setText(tr("No training run on this server yet."));
  } else {
    QString text = tr("%1: %2").arg(loop_->trainer(), QString::fromStdString(status->state));
    if (stats && stats->currentEpoch > 0) {
      text += stats->totalEpochs > 0
                  ? tr(", epoch %1/%2").arg(stats->currentEpoch).arg(stats->totalEpochs)
                  : tr(", epoch %1").arg(stats->currentEpoch);
    }
    if (stats && stats->bestMetric) {
      const QString name = stats->keyMetricName.empty()
                               ? tr("metric")
                               : QString::fromStdString(stats->keyMetricName);
      text += tr(", best %1 %2").arg(name).arg(*stats->bestMetric, 0, 'f', 3);
      if (stats->bestMetricEpoch) {
        text += tr(" (epoch %1)").arg(*stats->bestMetricEpoch);
      }
    }
    training_->setText(text);
  }
  if (stats && !stats->empty()) {
    chart_->setStats(*stats);
  }
  update();
}

}  // namespace delineate::app
