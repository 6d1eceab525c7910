#include "app/gui/shell/DesktopColorScheme.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QGuiApplication>
#include <QPalette>
#include <QTimer>

namespace delineate::app {

namespace {

const QString kService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString kPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString kInterface = QStringLiteral("org.freedesktop.portal.Settings");
const QString kNamespace = QStringLiteral("org.freedesktop.appearance");
const QString kKey = QStringLiteral("color-scheme");
constexpr int kReadTimeoutMs = 5000;
constexpr int kQuickAttempts = 20, kQuickRetryMs = 100;
constexpr int kConnectAttempts = kQuickAttempts + 60, kSlowRetryMs = 1000;

// Read() answers a variant holding a variant (the older interface wraps twice): unwrap all.
QVariant unwrapped(QVariant v) {
  while (v.canConvert<QDBusVariant>() && v.userType() == qMetaTypeId<QDBusVariant>()) {
    v = qvariant_cast<QDBusVariant>(v).variant();
  }
  return v;
}

std::optional<DesktopColorScheme::Preference> preferenceOf(const QVariant& value) {
  bool ok = false;
  const uint v = unwrapped(value).toUInt(&ok);
  if (!ok) {
    return std::nullopt;
  }
  // The portal's documented values: 0 no preference, 1 prefer dark, 2 prefer light.
  switch (v) {
    case 1:
      return DesktopColorScheme::Preference::Dark;
    case 2:
      return DesktopColorScheme::Preference::Light;
    default:
      return DesktopColorScheme::Preference::None;
  }
}

bool paletteIsDark(const QPalette& p) {
  return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

}  // namespace

DesktopColorScheme::DesktopColorScheme(QObject* parent)
    : QObject(parent), platformDark_(paletteIsDark(QGuiApplication::palette())) {
  if (!QDBusConnection::sessionBus().isConnected()) {
    return;
  }
  read();
  connectSettingChanged(0);
}

void DesktopColorScheme::read() {
  QDBusMessage message =
      QDBusMessage::createMethodCall(kService, kPath, kInterface, QStringLiteral("Read"));
  message << kNamespace << kKey;
  // Asked without blocking: the window starts with the platform's palette and turns when the
  // portal answers (within milliseconds on a desktop; activating the portal may take longer).
  auto* watcher = new QDBusPendingCallWatcher(
      QDBusConnection::sessionBus().asyncCall(message, kReadTimeoutMs), this);
  connect(watcher, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher* w) {
    w->deleteLater();
    const QDBusMessage answer = w->reply();
    if (answer.type() == QDBusMessage::ReplyMessage && !answer.arguments().isEmpty()) {
      take(preferenceOf(answer.arguments().front()));
    }
  });
}

void DesktopColorScheme::take(std::optional<Preference> preference) {
  const bool before = prefersDark();
  portal_ = preference;
  answered_ = true;
  if (prefersDark() != before) {
    Q_EMIT changed();
  }
}

void DesktopColorScheme::connectSettingChanged(int attempt) {
  // The slot's signature as moc writes it (normalised, no spaces), which the bus matches.
  // clang-format off
  const bool ok = QDBusConnection::sessionBus().connect(
      kService, kPath, kInterface, QStringLiteral("SettingChanged"), this,
      SLOT(onSettingChanged(QString,QString,QDBusVariant)));
  // clang-format on
  if (ok) {
    following_ = true;
    // A change made between the first Read and now sent its signal to nobody: read again.
    if (attempt > 0) {
      read();
    }
    return;
  }
  // Made before the event loop has turned once (start-up), Qt's session bus refuses signal
  // connections (seen every time with Qt 6.4); a moment later it takes them, later still on a
  // loaded machine. Tried quickly at first, then once a second for a minute.
  if (attempt < kConnectAttempts) {
    const int delayMs = attempt < kQuickAttempts ? kQuickRetryMs : kSlowRetryMs;
    QTimer::singleShot(delayMs, this, [this, attempt] { connectSettingChanged(attempt + 1); });
  }
}

bool DesktopColorScheme::prefersDark() const {
  if (portal_ && *portal_ != Preference::None) {
    return *portal_ == Preference::Dark;
  }
  return platformDark_;
}

void DesktopColorScheme::onSettingChanged(const QString& nameSpace, const QString& key,
                                          const QDBusVariant& value) {
  if (nameSpace != kNamespace || key != kKey) {
    return;
  }
  take(preferenceOf(value.variant()));
}

}  // namespace delineate::app
