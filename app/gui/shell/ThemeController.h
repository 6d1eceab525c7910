#pragma once
// Light and dark: the workstation follows the desktop (DesktopColorScheme: the XDG portal's
// color-scheme, else the platform palette) unless the user picked one in Edit > Preferences.
// Dark is Fusion's widgets with a dark palette; light is the platform's own palette (Fusion's
// standard one when the platform's is dark). The slice and 3D views keep their own black
// backgrounds either way.
#include <QObject>
#include <QPalette>
#include <QString>

namespace delineate::app {

class DesktopColorScheme;

enum class ThemeMode { FollowDesktop, Light, Dark };

QString toString(ThemeMode mode);                 // "desktop", "light", "dark"
ThemeMode themeModeFromString(const QString& s);  // unknown: FollowDesktop

class ThemeController : public QObject {
  Q_OBJECT

 public:
  explicit ThemeController(QObject* parent = nullptr);

  void setMode(ThemeMode mode);
  ThemeMode mode() const { return mode_; }
  // What is applied now.
  bool dark() const { return dark_; }
  DesktopColorScheme* desktop() const { return desktop_; }

  static QPalette darkPalette();

 Q_SIGNALS:
  void applied(bool dark);

 private:
  void apply();

  DesktopColorScheme* desktop_;
  QPalette light_;
  ThemeMode mode_ = ThemeMode::FollowDesktop;
  bool dark_ = false;
  bool applied_ = false;
};

}  // namespace delineate::app
