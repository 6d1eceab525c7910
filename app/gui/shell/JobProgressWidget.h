#pragma once
// The status bar's job area: the running job's title and stage, a progress bar and Cancel,
// shown only while a JobRunner works.
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace delineate::app {

class JobRunner;

class JobProgressWidget : public QWidget {
  Q_OBJECT

 public:
  JobProgressWidget(JobRunner* jobs, QWidget* parent = nullptr);

  QToolButton* cancelButton() const { return cancel_; }
  QProgressBar* progressBar() const { return progress_; }

 private:
  JobRunner* jobs_;
  QLabel* label_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QToolButton* cancel_ = nullptr;
};

}  // namespace delineate::app
