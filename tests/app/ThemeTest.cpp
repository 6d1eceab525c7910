// Light and dark following the desktop, through a real XDG desktop portal (ctest's
// Theme.DesktopPortal runs this under tests/app/run-with-portal.sh, the desktop set to prefer
// dark): the window opens dark, turns light when the desktop's setting changes, and a theme
// chosen in Preferences wins over the desktop's.
#include <gtest/gtest.h>

#include <QApplication>
#include <QProcess>
#include <QSettings>

#include "GuiTestSupport.h"
#include "app/gui/MainWindow.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/shell/DesktopColorScheme.h"
#include "app/gui/shell/ThemeController.h"

using namespace delineate;

namespace {

bool setDesktopScheme(const QString& scheme) {
  return QProcess::execute(QStringLiteral("gsettings"),
                           {QStringLiteral("set"), QStringLiteral("org.gnome.desktop.interface"),
                            QStringLiteral("color-scheme"), scheme}) == 0;
}

// What the portal itself answers now (for a failure's message: the desktop chain or the app).
QString portalSays() {
  QProcess gdbus;
  gdbus.start(QStringLiteral("gdbus"),
              {QStringLiteral("call"), QStringLiteral("--session"), QStringLiteral("--dest"),
               QStringLiteral("org.freedesktop.portal.Desktop"), QStringLiteral("--object-path"),
               QStringLiteral("/org/freedesktop/portal/desktop"), QStringLiteral("--method"),
               QStringLiteral("org.freedesktop.portal.Settings.Read"),
               QStringLiteral("org.freedesktop.appearance"), QStringLiteral("color-scheme")});
  gdbus.waitForFinished(5000);
  return QString::fromUtf8(gdbus.readAllStandardOutput() + gdbus.readAllStandardError()).trimmed();
}

bool paletteDark() {
  return QApplication::palette().color(QPalette::Window).lightness() < 80;
}

}  // namespace

TEST(ThemeTest, FollowsTheDesktopsColourSchemeThroughThePortal) {
  if (std::getenv("DELINEATE_TEST_PORTAL") == nullptr) {
    GTEST_SKIP() << "needs the desktop portal: run through ctest's Theme.DesktopPortal";
  }
  DELINEATE_REQUIRE_GUI();
  QSettings().remove(QStringLiteral("preferences"));
  app::MainWindow window(app::MainWindowOptions{.interactive = false, .rememberRecent = false});
  window.show();
  app::ThemeController* theme = window.editing()->theme();
  EXPECT_EQ(theme->mode(), app::ThemeMode::FollowDesktop);
  ASSERT_TRUE(test::waitUntil([&] { return theme->desktop()->portalAnswered(); }, 20000))
      << "the portal answered";
  ASSERT_TRUE(test::waitUntil([&] { return theme->desktop()->following(); }, 60000))
      << "the bus took the subscription to the portal's SettingChanged";
  EXPECT_TRUE(theme->dark()) << "the desktop prefers dark";
  EXPECT_TRUE(paletteDark());

  ASSERT_TRUE(setDesktopScheme(QStringLiteral("prefer-light")));
  EXPECT_TRUE(test::waitUntil([&] { return !theme->dark(); }, 20000))
      << "turned with the desktop; the portal now answers " << portalSays().toStdString();
  EXPECT_FALSE(paletteDark());
  ASSERT_TRUE(setDesktopScheme(QStringLiteral("prefer-dark")));
  EXPECT_TRUE(test::waitUntil([&] { return theme->dark(); }, 20000));

  // Chosen in Preferences: the desktop no longer decides.
  theme->setMode(app::ThemeMode::Light);
  EXPECT_FALSE(paletteDark());
  ASSERT_TRUE(setDesktopScheme(QStringLiteral("default")));
  ASSERT_TRUE(setDesktopScheme(QStringLiteral("prefer-dark")));
  test::waitUntil([] { return false; }, 1000);  // time for the portal's signals to arrive
  EXPECT_FALSE(theme->dark());
  EXPECT_FALSE(paletteDark());
  theme->setMode(app::ThemeMode::FollowDesktop);
  EXPECT_TRUE(theme->dark());
}
