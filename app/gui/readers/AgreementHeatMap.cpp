#include "app/gui/readers/AgreementHeatMap.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <array>
#include <cmath>

namespace delineate::app {

namespace {

// Viridis at five stops (matplotlib's table), interpolated linearly.
constexpr std::array<std::array<int, 3>, 5> kViridis{
    {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};

QString diceText(double d) {
  return std::isnan(d) ? QStringLiteral("–") : QString::number(d, 'f', 2);
}

QString hd95Text(double h) {
  if (std::isnan(h)) {
    return QStringLiteral("–");
  }
  return std::isinf(h) ? QStringLiteral("∞ mm") : QStringLiteral("%1 mm").arg(h, 0, 'f', 1);
}

}  // namespace

AgreementHeatMap::AgreementHeatMap(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
}

void AgreementHeatMap::setMatrices(const QStringList& readers,
                                   std::vector<std::vector<double>> dice,
                                   std::vector<std::vector<double>> hd95) {
  readers_ = readers;
  dice_ = std::move(dice);
  hd95_ = std::move(hd95);
  updateGeometry();
  update();
}

void AgreementHeatMap::clear() {
  setMatrices({}, {}, {});
}

QColor AgreementHeatMap::colorOf(double dice) {
  if (std::isnan(dice)) {
    return QColor(160, 160, 160);
  }
  const double t = std::clamp(dice, 0.0, 1.0) * double(kViridis.size() - 1);
  const std::size_t i = std::min<std::size_t>(std::size_t(t), kViridis.size() - 2);
  const double f = t - double(i);
  const auto& a = kViridis[i];
  const auto& b = kViridis[i + 1];
  return QColor(int(std::lround(a[0] + (b[0] - a[0]) * f)),
                int(std::lround(a[1] + (b[1] - a[1]) * f)),
                int(std::lround(a[2] + (b[2] - a[2]) * f)));
}

int AgreementHeatMap::labelWidth() const {
  const QFontMetrics fm(font());
  int w = 0;
  for (const QString& r : readers_) {
    w = std::max(w, fm.horizontalAdvance(r));
  }
  return std::min(w, 140) + 8;
}

int AgreementHeatMap::cellSize() const {
  const QFontMetrics fm(font());
  const int minimum =
      std::max(fm.horizontalAdvance(QStringLiteral("99.9 mm")), 2 * fm.height()) + 8;
  if (readers_.isEmpty()) {
    return minimum;
  }
  const int free = (width() - labelWidth() - 4) / int(readers_.size());
  return std::clamp(free, minimum, 4 * minimum);
}

QRect AgreementHeatMap::cellRect(int i, int j) const {
  const int c = cellSize();
  const int top = QFontMetrics(font()).height() + 6;
  return {labelWidth() + j * c, top + i * c, c - 1, c - 1};
}

QSize AgreementHeatMap::sizeHint() const {
  const int c = cellSize();
  const int n = int(readers_.size());
  return {labelWidth() + n * c + 4, QFontMetrics(font()).height() + 10 + n * c};
}

QSize AgreementHeatMap::minimumSizeHint() const {
  return sizeHint();
}

void AgreementHeatMap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const int n = int(readers_.size());
  if (n == 0) {
    return;
  }
  const QFontMetrics fm(font());
  for (int j = 0; j < n; ++j) {
    const QRect r = cellRect(0, j);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(r.left(), 2, r.width(), fm.height() + 2), Qt::AlignCenter,
               fm.elidedText(readers_[j], Qt::ElideRight, r.width()));
  }
  for (int i = 0; i < n; ++i) {
    const QRect row = cellRect(i, 0);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(2, row.top(), labelWidth() - 6, row.height()),
               Qt::AlignRight | Qt::AlignVCenter,
               fm.elidedText(readers_[i], Qt::ElideRight, labelWidth() - 6));
    for (int j = 0; j < n; ++j) {
      const QRect r = cellRect(i, j);
      const QColor fill = colorOf(dice_[std::size_t(i)][std::size_t(j)]);
      p.fillRect(r, fill);
      // Dark text on the light end of the scale, light text on the dark end.
      const double luminance = 0.2126 * fill.red() + 0.7152 * fill.green() + 0.0722 * fill.blue();
      p.setPen(luminance > 110 ? Qt::black : Qt::white);
      const QString text = diceText(dice_[std::size_t(i)][std::size_t(j)]) + QLatin1Char('\n') +
                           (i == j ? QString() : hd95Text(hd95_[std::size_t(i)][std::size_t(j)]));
      p.drawText(r, Qt::AlignCenter, text);
    }
  }
}

bool AgreementHeatMap::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    const auto* help = static_cast<QHelpEvent*>(e);
    for (int i = 0; i < int(readers_.size()); ++i) {
      for (int j = 0; j < int(readers_.size()); ++j) {
        if (cellRect(i, j).contains(help->pos())) {
          QToolTip::showText(
              help->globalPos(),
              tr("%1 vs %2: Dice %3, HD95 %4")
                  .arg(readers_[i], readers_[j], diceText(dice_[std::size_t(i)][std::size_t(j)]),
                       hd95Text(hd95_[std::size_t(i)][std::size_t(j)])),
              this);
          return true;
        }
      }
    }
    QToolTip::hideText();
    e->ignore();
    return true;
  }
  return QWidget::event(e);
}

}  // namespace delineate::app
