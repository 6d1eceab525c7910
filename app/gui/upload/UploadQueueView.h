#pragma once
// The upload queue of the current AI server, non-modal: each case (id, what the user picked,
// pending / sending / done / failed, attempts, size, its progress, the last error naming the
// server), the overall progress and what the worker does now, and Pause / Resume, Cancel (the
// selected items leave the queue), Retry failed and Clear done.
#include <QDialog>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace delineate::app {

class UploadController;

class UploadQueueView : public QDialog {
  Q_OBJECT

 public:
  enum Column {
    IdColumn,
    SourceColumn,
    StateColumn,
    ProgressColumn,
    AttemptsColumn,
    SizeColumn,
    ErrorColumn,
    ColumnCount
  };

  explicit UploadQueueView(UploadController* controller, QWidget* parent = nullptr);

  QTableWidget* table() const { return table_; }
  QPushButton* pauseButton() const { return pause_; }
  QPushButton* cancelButton() const { return cancel_; }
  QPushButton* retryButton() const { return retry_; }
  QPushButton* clearButton() const { return clear_; }
  QProgressBar* overallBar() const { return overall_; }
  QLabel* serverLabel() const { return server_; }
  QLabel* stageLabel() const { return stage_; }
  QLabel* noteLabel() const { return note_; }

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void update();
  void cancelSelected();

  UploadController* controller_;
  QLabel* server_;
  QTableWidget* table_;
  QProgressBar* overall_;
  QLabel* stage_;
  QLabel* note_;
  QPushButton* pause_;
  QPushButton* cancel_;
  QPushButton* retry_;
  QPushButton* clear_;
};

}  // namespace delineate::app
