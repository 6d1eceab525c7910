#pragma once
// The annotator loop's panel: the server and its active-learning strategy, Next sample (and
// whether to load the server's `original` label and the readers' labels), the sample's id, Submit
// label (the final one) with "Start training after submitting", Submit my reading (the reader's
// own label, named in the button), the trainer with Start / Stop training, the training status
// (state, epoch n/N, best metric) and its plot, the last message, and the running job's progress
// with Cancel.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace delineate::app {

class AnnotatorLoop;
class JobProgressWidget;
class TrainingChart;

class AnnotatorLoopDock : public QWidget {
  Q_OBJECT

 public:
  AnnotatorLoopDock(AnnotatorLoop* loop, QWidget* parent = nullptr);

  QComboBox* strategyCombo() const { return strategy_; }
  QComboBox* trainerCombo() const { return trainer_; }
  QPushButton* nextButton() const { return next_; }
  QPushButton* submitButton() const { return submit_; }
  QCheckBox* trainAfterSubmitBox() const { return trainAfterSubmit_; }
  QCheckBox* originalBox() const { return original_; }
  QCheckBox* readersBox() const { return readers_; }
  QPushButton* submitReadingButton() const { return submitReading_; }
  QPushButton* startTrainingButton() const { return startTraining_; }
  QPushButton* stopTrainingButton() const { return stopTraining_; }
  QLabel* serverLabel() const { return server_; }
  QLabel* sampleLabel() const { return sample_; }
  QLabel* trainingLabel() const { return training_; }
  QLabel* messageLabel() const { return message_; }
  TrainingChart* chart() const { return chart_; }
  JobProgressWidget* progress() const { return progress_; }

  void showMessage(const QString& text, bool error = false);

 private:
  void update();
  void updateTraining();

  AnnotatorLoop* loop_;
  QLabel* server_;
  QComboBox* strategy_;
  QCheckBox* original_;
  QCheckBox* readers_;
  QPushButton* next_;
  QLabel* sample_;
  QPushButton* submit_;
  QCheckBox* trainAfterSubmit_;
  QPushButton* submitReading_;
  QComboBox* trainer_;
  QPushButton* startTraining_;
  QPushButton* stopTraining_;
  QLabel* training_;
  TrainingChart* chart_;
  QLabel* message_;
  JobProgressWidget* progress_;
};

}  // namespace delineate::app
