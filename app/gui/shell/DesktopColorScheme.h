#pragma once
// What the desktop says about light and dark: the XDG desktop portal's
// org.freedesktop.appearance color-scheme (GNOME, KDE and others publish it through
// org.freedesktop.portal.Settings on the session bus), followed live through its SettingChanged
// signal. Without a portal answer the platform's own palette decides (a dark GTK or KDE palette
// reaches Qt through the platform theme).
#include <QDBusVariant>
#include <QObject>
#include <optional>

namespace delineate::app {

class DesktopColorScheme : public QObject {
  Q_OBJECT

 public:
  enum class Preference { None, Dark, Light };

  explicit DesktopColorScheme(QObject* parent = nullptr);

  // The portal's answer (asked once at construction, without blocking, then updated by its
  // signal); nullopt until a portal answered.
  std::optional<Preference> portalPreference() const { return portal_; }
  bool portalAnswered() const { return answered_; }
  // Whether the bus took the subscription to the portal's SettingChanged signal (changes made
  // on the desktop before that are caught by reading the setting again once it is in place).
  bool following() const { return following_; }
  // Dark when the portal prefers dark, light when it prefers light; otherwise whether the
  // platform's palette (before any change of ours) is dark.
  bool prefersDark() const;

 Q_SIGNALS:
  // prefersDark() changed.
  void changed();

 private Q_SLOTS:
  // org.freedesktop.portal.Settings.SettingChanged(s namespace, s key, v value)
  void onSettingChanged(const QString& nameSpace, const QString& key, const QDBusVariant& value);

 private:
  void connectSettingChanged(int attempt);
  // Asks the portal for the setting without blocking; the answer updates portal_.
  void read();
  void take(std::optional<Preference> preference);

  std::optional<Preference> portal_;
  bool answered_ = false;
  bool following_ = false;
  bool platformDark_ = false;
};

}  // namespace delineate::app
