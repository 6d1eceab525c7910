#include "viewers/SliceScoreStrip.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace delineate::viewers {

namespace {

QColor mix(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                          float(a.greenF() + (b.greenF() - a.greenF()) * t),
                          float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

}  // namespace

SliceScoreStrip::SliceScoreStrip(QSlider* slider, QWidget* parent)
    : QWidget(parent), slider_(slider) {
  setFixedWidth(kWidth);
  setCursor(Qt::PointingHandCursor);
  setVisible(false);
  connect(slider_, &QSlider::rangeChanged, this, [this] { update(); });
}

void SliceScoreStrip::setScores(std::vector<double> scores, const QString& name) {
  scores_ = std::move(scores);
  name_ = name;
  setVisible(!scores_.empty());
  update();
}

QColor SliceScoreStrip::colorOf(double score) {
  const QColor low(213, 94, 0);    // vermilion
  const QColor mid(240, 228, 66);  // yellow
  const QColor high(0, 158, 115);  // bluish green
  const double s = std::clamp(score, 0.0, 1.0);
  return s < 0.5 ? mix(low, mid, s * 2) : mix(mid, high, (s - 0.5) * 2);
}

std::pair<int, int> SliceScoreStrip::span() const {
  QStyleOptionSlider option;
  option.initFrom(slider_);
  option.orientation = slider_->orientation();
  option.minimum = slider_->minimum();
  option.maximum = slider_->maximum();
  option.sliderPosition = slider_->sliderPosition();
  option.sliderValue = slider_->value();
  option.upsideDown = !slider_->invertedAppearance();
  const QRect groove = slider_->style()->subControlRect(QStyle::CC_Slider, &option,
                                                        QStyle::SC_SliderGroove, slider_);
  const QRect handle = slider_->style()->subControlRect(QStyle::CC_Slider, &option,
                                                        QStyle::SC_SliderHandle, slider_);
  const int top =
      slider_->mapTo(parentWidget(), QPoint(0, groove.top())).y() - y() + handle.height() / 2;
  return {top, std::max(1, groove.height() - handle.height())};
}

int SliceScoreStrip::rowOf(int slice) const {
  const auto [top, length] = span();
  return top + QStyle::sliderPositionFromValue(slider_->minimum(), slider_->maximum(), slice,
                                               length, !slider_->invertedAppearance());
}

int SliceScoreStrip::sliceAt(int y) const {
  if (scores_.empty()) {
    return -1;
  }
  const auto [top, length] = span();
  const int value = QStyle::sliderValueFromPosition(slider_->minimum(), slider_->maximum(),
                                                    std::clamp(y - top, 0, length), length,
                                                    !slider_->invertedAppearance());
  return std::clamp(value, 0, static_cast<int>(scores_.size()) - 1);
}

void SliceScoreStrip::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), QColor(40, 40, 40));
  const int n = static_cast<int>(scores_.size());
  if (n == 0) {
    return;
  }
  const int rowHeight = std::max(1, span().second / std::max(1, n));
  for (int s = 0; s < n; ++s) {
    if (!std::isfinite(scores_[std::size_t(s)])) {
      continue;
    }
    const int y = rowOf(s);
    painter.fillRect(QRect(1, y - rowHeight / 2, width() - 2, rowHeight),
                     colorOf(scores_[std::size_t(s)]));
  }
}

void SliceScoreStrip::mousePressEvent(QMouseEvent* event) {
  const int slice = sliceAt(event->position().toPoint().y());
  if (slice >= 0 && event->button() == Qt::LeftButton) {
    Q_EMIT sliceClicked(slice);
  }
}

bool SliceScoreStrip::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    const int slice = sliceAt(static_cast<QHelpEvent*>(event)->pos().y());
    if (slice >= 0) {
      const double score = scores_[std::size_t(slice)];
      const QString value =
          std::isfinite(score) ? QString::number(score, 'f', 3) : tr("not on this slice");
      QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(),
                         tr("Slice %1 — %2 %3").arg(slice + 1).arg(name_, value), this);
    }
    return true;
  }
  return QWidget::event(event);
}

}  // namespace delineate::viewers
