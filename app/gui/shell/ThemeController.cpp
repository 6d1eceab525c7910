#include "app/gui/shell/ThemeController.h"

#include <QApplication>
#include <QEvent>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>
#include <memory>

#include "app/gui/shell/DesktopColorScheme.h"

namespace delineate::app {

QString toString(ThemeMode mode) {
  switch (mode) {
    case ThemeMode::Light:
      return QStringLiteral("light");
    case ThemeMode::Dark:
      return QStringLiteral("dark");
    case ThemeMode::FollowDesktop:
      break;
  }
  return QStringLiteral("desktop");
}

ThemeMode themeModeFromString(const QString& s) {
  if (s == QLatin1String("light")) {
    return ThemeMode::Light;
  }
  if (s == QLatin1String("dark")) {
    return ThemeMode::Dark;
  }
  return ThemeMode::FollowDesktop;
}

QPalette ThemeController::darkPalette() {
  QPalette p;
  const QColor window(53, 53, 53), base(35, 35, 35), text(230, 230, 230), disabled(127, 127, 127);
  const QColor highlight(42, 130, 218);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(45, 45, 45));
  p.setColor(QPalette::ToolTipBase, QColor(25, 25, 25));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, disabled);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(255, 100, 100));
  p.setColor(QPalette::Light, QColor(75, 75, 75));
  p.setColor(QPalette::Midlight, QColor(64, 64, 64));
  p.setColor(QPalette::Mid, QColor(40, 40, 40));
  p.setColor(QPalette::Dark, QColor(25, 25, 25));
  p.setColor(QPalette::Shadow, QColor(10, 10, 10));
  p.setColor(QPalette::Link, QColor(90, 160, 240));
  p.setColor(QPalette::LinkVisited, QColor(160, 130, 230));
  p.setColor(QPalette::Highlight, highlight);
  p.setColor(QPalette::HighlightedText, Qt::white);
  for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
    p.setColor(QPalette::Disabled, role, disabled);
  }
  p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(80, 80, 80));
  return p;
}

ThemeController::ThemeController(QObject* parent)
    : QObject(parent), desktop_(new DesktopColorScheme(this)) {
  // The platform's palette is the light one unless it is dark itself.
  light_ = QApplication::palette();
  if (light_.color(QPalette::Window).lightness() < 128) {
    std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    light_ = fusion->standardPalette();
  }
  connect(desktop_, &DesktopColorScheme::changed, this, [this] {
    if (mode_ == ThemeMode::FollowDesktop) {
      apply();
    }
  });
}

void ThemeController::setMode(ThemeMode mode) {
  mode_ = mode;
  apply();
}

void ThemeController::apply() {
  const bool dark =
      mode_ == ThemeMode::Dark || (mode_ == ThemeMode::FollowDesktop && desktop_->prefersDark());
  if (applied_ && dark == dark_) {
    return;
  }
  applied_ = true;
  dark_ = dark;
  QApplication::setPalette(dark ? darkPalette() : light_);
  // Qt passes a new application palette on to the widgets only while its event loop runs (not
  // during start-up, nor in a test driving events itself): tell them here, which repeats nothing
  // harmful when Qt did.
  QEvent changed(QEvent::ApplicationPaletteChange);
  for (QWidget* w : QApplication::allWidgets()) {
    QApplication::sendEvent(w, &changed);
  }
  Q_EMIT applied(dark);
}

}  // namespace delineate::app
