#include "app/gui/frames/FrameBar.h"

#include <QAction>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <algorithm>
#include <cmath>

#include "core/model/FrameSeries.h"

namespace delineate::app {

FrameBar::FrameBar(QWidget* parent) : QToolBar(tr("Frames"), parent) {
  setObjectName(QStringLiteral("frameBar"));
  play_ = addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Play frames"));
  play_->setObjectName(QStringLiteral("framePlay"));
  play_->setCheckable(true);
  play_->setToolTip(tr("Play the frames as a cine loop (Alt+P)"));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName(QStringLiteral("frameSlider"));
  slider_->setMinimumWidth(240);
  slider_->setToolTip(tr("Frame of the 4-D image (Alt+Left, Alt+Right)"));
  addWidget(slider_);
  label_ = new QLabel(this);
  label_->setObjectName(QStringLiteral("frameLabel"));
  label_->setMinimumWidth(180);
  label_->setContentsMargins(8, 0, 8, 0);
  addWidget(label_);
  timer_ = new QTimer(this);
  connect(timer_, &QTimer::timeout, this, [this] { step(1); });
  connect(play_, &QAction::toggled, this, [this](bool on) { setPlaying(on); });
  connect(slider_, &QSlider::valueChanged, this, [this](int value) {
    if (series_ && static_cast<std::size_t>(value) != current_) {
      current_ = static_cast<std::size_t>(value);
      updateLabel();
      Q_EMIT frameRequested(current_);
    }
  });
  setVisible(false);
}

void FrameBar::setSeries(std::shared_ptr<const core::FrameSeries> series, std::size_t frame) {
  const bool same = series == series_;
  series_ = std::move(series);
  if (!series_) {
    setPlaying(false);
    current_ = 0;
    setVisible(false);
    return;
  }
  if (!same) {
    setPlaying(false);
    const QSignalBlocker block(slider_);
    slider_->setRange(0, static_cast<int>(series_->count()) - 1);
  }
  setFrame(frame);
  setVisible(true);
}

void FrameBar::setFrame(std::size_t frame) {
  current_ = series_ ? std::min(frame, series_->count() - 1) : 0;
  const QSignalBlocker block(slider_);
  slider_->setValue(static_cast<int>(current_));
  updateLabel();
}

bool FrameBar::playing() const {
  return timer_->isActive();
}

double FrameBar::framesPerSecond() const {
  if (series_) {
    const core::FrameAxis& axis = series_->axis();
    if (axis.name == "time" && axis.unit == "s" && axis.values.size() > 1) {
      const double step =
          (axis.values.back() - axis.values.front()) / static_cast<double>(axis.values.size() - 1);
      if (step > 0 && std::isfinite(step)) {
        return std::clamp(1.0 / step, 0.5, 60.0);  // real time, within what a cine can show
      }
    }
  }
  return 4.0;
}

void FrameBar::setPlaying(bool playing) {
  if (playing && series_) {
    timer_->start(static_cast<int>(std::lround(1000.0 / framesPerSecond())));
  } else {
    timer_->stop();
  }
  const QSignalBlocker block(play_);
  play_->setChecked(timer_->isActive());
  play_->setIcon(
      style()->standardIcon(timer_->isActive() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void FrameBar::step(int delta) {
  if (!series_) {
    return;
  }
  const auto n = static_cast<long>(series_->count());
  const long next = ((static_cast<long>(current_) + delta) % n + n) % n;
  slider_->setValue(static_cast<int>(next));  // emits frameRequested
}

QString FrameBar::label() const {
  return label_->text();
}

void FrameBar::updateLabel() {
  if (!series_) {
    label_->clear();
    return;
  }
  label_->setText(tr("%1  (%2 / %3)")
                      .arg(QString::fromStdString(series_->axis().label(current_)))
                      .arg(current_ + 1)
                      .arg(series_->count()));
}

}  // namespace delineate::app
