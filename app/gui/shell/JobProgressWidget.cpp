#include "app/gui/shell/JobProgressWidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

#include "app/gui/shell/JobRunner.h"

namespace delineate::app {

JobProgressWidget::JobProgressWidget(JobRunner* jobs, QWidget* parent)
    : QWidget(parent), jobs_(jobs) {
  label_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(200);
  progress_->setTextVisible(false);
  cancel_ = new QToolButton(this);
  cancel_->setText(tr("Cancel"));
  cancel_->setObjectName(QStringLiteral("cancelJob"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(label_);
  layout->addWidget(progress_);
  layout->addWidget(cancel_);
  hide();

  connect(cancel_, &QToolButton::clicked, jobs_, &JobRunner::cancel);
  connect(jobs_, &JobRunner::started, this, [this](const QString& title) {
    label_->setText(title);
    progress_->setValue(0);
    show();
  });
  connect(jobs_, &JobRunner::progress, this, [this](double fraction, const QString& stage) {
    progress_->setValue(static_cast<int>(fraction * 1000));
    if (!stage.isEmpty()) {
      label_->setText(jobs_->title() + QStringLiteral(" — ") + stage);
    }
  });
  connect(jobs_, &JobRunner::finished, this, [this](bool) { hide(); });
}

}  // namespace delineate::app
