// Signing in to an AI server that has sign-in on, in the real window against delineate-server's
// handler in this process (MonaiServer with AuthGate, on 127.0.0.1): adding the server asks for
// the user name and password in the sign-in dialog (answered here as a user would), a rejected
// password asks again saying why, the sign-in runs as a job and the models appear. The keychain
// is a system service: these tests point the D-Bus session at nothing, so the status must say
// the sign-in is kept for this session only, and nothing secret may land in QSettings. With a
// real keychain (ctest's SignIn.RealKeychain, a private D-Bus session with gnome-keyring) the
// refresh token is stored and a later sign-in needs no dialog.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QTimer>
#include <QToolButton>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <thread>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/AiDock.h"
#include "app/gui/ai/CredentialStore.h"
#include "app/gui/ai/ServerSignIn.h"
#include "app/gui/ai/SignInDialog.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/gui/shell/JobRunner.h"
#include "app/server/MonaiServer.h"
#include "core/net/HttpServer.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;

namespace {

constexpr const char* kPassword = "correct horse";

// delineate-server's handler with sign-in on, one user, behind a listener on 127.0.0.1.
class AuthServer {
 public:
  // `stallToken`: the password grant (POST /auth/token) is held until the server goes, as by a
  // server that hangs.
  explicit AuthServer(const std::filesystem::path& datastore, bool stallToken = false) {
    server::ServerOptions options;
    options.datastore = datastore;
    server::AuthOptions auth;
    auth.users = {{"dana", kPassword, {server::kRoleUser, server::kRoleAnnotator}}};
    options.auth = auth;
    app_ = std::make_unique<server::MonaiServer>(std::make_shared<annotation::LocalEngineBackend>(),
                                                 options);
    url_ = QStringLiteral("http://127.0.0.1:%1").arg(core::net::freeLocalPort());
    http_ = std::make_unique<core::net::HttpServer>(
        url_.toStdString(), [this, stallToken](const core::net::ServerRequest& r) {
          if (stallToken && r.path.rfind("/auth/token", 0) == 0) {
            ++stalled_;
            for (int i = 0; i < 600 && !closing_; ++i) {
              std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
          }
          return app_->handle(r);
        });
  }
  ~AuthServer() { closing_ = true; }
  const QString& url() const { return url_; }
  int stalled() const { return stalled_; }

 private:
  std::atomic<bool> closing_{false};
  std::atomic<int> stalled_{0};
  std::unique_ptr<server::MonaiServer> app_;
  QString url_;
  std::unique_ptr<core::net::HttpServer> http_;
};

// Answers the next sign-in dialog: records its reason, fills it in and presses Sign in. (The
// dialog opens window-modal without a nested loop, so the test's own waits drive it.)
void answerSignIn(const QString& user, const QString& password, QString* reason, bool* seen) {
  auto* timer = new QTimer;
  timer->setInterval(20);
  QObject::connect(timer, &QTimer::timeout, [=] {
    auto* dialog = qobject_cast<app::SignInDialog*>(QApplication::activeModalWidget());
    if (dialog == nullptr || !dialog->isVisible()) {
      return;
    }
    timer->stop();
    timer->deleteLater();
    *seen = true;
    *reason = dialog->reasonLabel()->text();
    EXPECT_EQ(dialog->passwordEdit()->echoMode(), QLineEdit::Password);
    EXPECT_FALSE(dialog->rememberBox()->isChecked()) << "the password is kept only when asked";
    dialog->userEdit()->setText(user);
    dialog->passwordEdit()->setText(password);
    dialog->accept();
  });
  timer->start();
}

// Every value under every key of the app's settings, as text.
QString allSettings() {
  QSettings settings;
  QString text;
  for (const QString& key : settings.allKeys()) {
    text += key + QLatin1Char('=') + settings.value(key).toStringList().join(QLatin1Char(',')) +
            settings.value(key).toString() + QLatin1Char('\n');
  }
  return text;
}

class SignInTest : public test::EditingWindowTest {
 protected:
  SignInTest() {
    interactive_ = true;
    qputenv("DELINEATE_RECOVERY_DIR", QByteArray::fromStdString((dir_ / "recovery").string()));
    if (std::getenv("DELINEATE_TEST_REAL_KEYCHAIN") == nullptr) {
      // No keychain: a session bus address where nothing listens fails fast and the same way
      // on every machine (an unset one may autolaunch a bus, or a keychain that then prompts).
      savedBus_ = qgetenv("DBUS_SESSION_BUS_ADDRESS");
      qputenv("DBUS_SESSION_BUS_ADDRESS",
              QByteArray::fromStdString("unix:path=" + (dir_ / "no-bus").string()));
    }
  }
  ~SignInTest() override {
    if (std::getenv("DELINEATE_TEST_REAL_KEYCHAIN") == nullptr) {
      savedBus_.isEmpty() ? qunsetenv("DBUS_SESSION_BUS_ADDRESS")
                          : qputenv("DBUS_SESSION_BUS_ADDRESS", savedBus_);
    }
  }
  app::AiController* ai() const { return editing()->ai(); }
  QString status() const { return editing()->aiDock()->statusLabel()->text(); }

  // Adds the server, answers a wrong password then the right one; returns the backend index.
  int signInThroughTheDialog(const AuthServer& server) {
    QString firstReason, secondReason;
    bool first = false, second = false;
    answerSignIn(QStringLiteral("dana"), QStringLiteral("wrong"), &firstReason, &first);
    const int index = ai()->addServer(server.url());
    EXPECT_TRUE(test::waitUntil([&] { return first; }));
    EXPECT_TRUE(firstReason.contains(QStringLiteral("sign-in needed")))
        << firstReason.toStdString();
    answerSignIn(QStringLiteral("dana"), QString::fromLatin1(kPassword), &secondReason, &second);
    EXPECT_TRUE(test::waitUntil([&] { return second; }));
    EXPECT_TRUE(secondReason.contains(QStringLiteral("rejected the user name or password")))
        << secondReason.toStdString();
    EXPECT_TRUE(secondReason.contains(server.url())) << secondReason.toStdString();
    EXPECT_TRUE(test::waitUntil([&] { return ai()->connected(); }, 60000))
        << status().toStdString();
    return index;
  }

  // Through the backend interface only: the app knows no plugin's class.
  std::shared_ptr<core::ai::AiBackend> backend(int index) const {
    return ai()->backends()[static_cast<std::size_t>(index)].backend;
  }

 private:
  QByteArray savedBus_;
};

}  // namespace

TEST_F(SignInTest, TheDialogSignsInAndWithoutAKeychainTheTokenStaysInMemoryOnly) {
  if (std::getenv("DELINEATE_TEST_REAL_KEYCHAIN") != nullptr) {
    GTEST_SKIP() << "this test covers the machine without a keychain";
  }
  test::ForgetServers forget;
  AuthServer server(dir_ / "store");
  const int index = signInThroughTheDialog(server);
  EXPECT_EQ(ai()->backendIndex(), index);
  EXPECT_FALSE(ai()->models().isEmpty());
  const QString s = status();
  EXPECT_TRUE(s.contains(QStringLiteral("signed in as dana"))) << s.toStdString();
  EXPECT_TRUE(s.contains(QStringLiteral("keychain is unavailable"))) << s.toStdString();
  EXPECT_TRUE(s.contains(QStringLiteral("kept for this session only"))) << s.toStdString();
  const core::ai::SignInTokens tokens = backend(index)->signInTokens();
  ASSERT_FALSE(tokens.refreshToken.empty());
  const QString settings = allSettings();
  EXPECT_TRUE(settings.contains(server.url())) << "the server itself is remembered";
  EXPECT_FALSE(settings.contains(QString::fromLatin1(kPassword)));
  EXPECT_FALSE(settings.contains(QString::fromStdString(tokens.refreshToken)));
  EXPECT_FALSE(settings.contains(QString::fromStdString(tokens.accessToken)));
}

TEST(SignInWithoutDialogs, TheStatusSaysTheServerWantsASignInAndNothingBlocks) {
  DELINEATE_REQUIRE_GUI();
  test::TempDir dir;
  test::ForgetServers forget;
  AuthServer server(dir / "store");
  app::MainWindow window(app::MainWindowOptions{.interactive = false, .rememberRecent = false});
  window.show();
  app::AiController* ai = window.editing()->ai();
  bool asked = false;
  QObject::connect(ai, &app::AiController::signInRequired, [&asked] { asked = true; });
  ai->addServer(server.url());
  ASSERT_TRUE(test::waitUntil([&] { return asked; }));
  EXPECT_EQ(QApplication::activeModalWidget(), nullptr);
  const QString s = window.editing()->aiDock()->statusLabel()->text();
  EXPECT_TRUE(s.contains(QStringLiteral("sign-in needed"))) << s.toStdString();
  EXPECT_TRUE(s.contains(server.url())) << s.toStdString();
  EXPECT_FALSE(ai->connected());
}

TEST_F(SignInTest, ASignInToAServerThatHangsShowsItsProgressAndCancelFreesThePanel) {
  if (std::getenv("DELINEATE_TEST_REAL_KEYCHAIN") != nullptr) {
    GTEST_SKIP() << "this test covers the machine without a keychain";
  }
  test::ForgetServers forget;
  AuthServer server(dir_ / "store", true);
  QString reason;
  bool asked = false;
  answerSignIn(QStringLiteral("dana"), QString::fromLatin1(kPassword), &reason, &asked);
  ai()->addServer(server.url());
  ASSERT_TRUE(test::waitUntil([&] { return asked && server.stalled() > 0; }, 30000));
  auto* progress =
      editing()->aiDock()->findChild<app::JobProgressWidget*>(QStringLiteral("signInProgress"));
  ASSERT_NE(progress, nullptr);
  ASSERT_TRUE(test::waitUntil([&] { return progress->isVisible(); }, 10000))
      << "the sign-in under way is shown";
  EXPECT_TRUE(ai()->serverSignIn()->busy());
  EXPECT_TRUE(status().contains(QStringLiteral("signing in as dana"))) << status().toStdString();
  ASSERT_TRUE(progress->cancelButton()->isEnabled());
  progress->cancelButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !ai()->serverSignIn()->busy(); }, 10000))
      << "Cancel ends the wait for the server";
  EXPECT_TRUE(test::waitUntil([&] { return !progress->isVisible(); }, 5000));
  EXPECT_TRUE(status().contains(QStringLiteral("sign-in cancelled"))) << status().toStdString();
  EXPECT_FALSE(ai()->connected());
}

// Run by ctest's SignIn.RealKeychain (tests/app/run-with-keychain.sh); skipped elsewhere.
TEST_F(SignInTest, WithARealKeychainTheRefreshTokenIsKeptAndSignsInTheNextTime) {
  if (std::getenv("DELINEATE_TEST_REAL_KEYCHAIN") == nullptr) {
    GTEST_SKIP() << "needs a Secret Service: run through ctest's SignIn.RealKeychain";
  }
  test::ForgetServers forget;
  AuthServer server(dir_ / "store");
  const int index = signInThroughTheDialog(server);
  const QString s = status();
  EXPECT_TRUE(s.contains(QStringLiteral("signed in as dana"))) << s.toStdString();
  EXPECT_FALSE(s.contains(QStringLiteral("unavailable"))) << s.toStdString();

  // What the keychain holds: the user and the refresh token, not the password.
  app::CredentialStore store;
  std::optional<app::StoredCredentials> kept;
  QString error;
  bool loaded = false;
  store.load(server.url(), [&](std::optional<app::StoredCredentials> c, const QString& e) {
    kept = std::move(c);
    error = e;
    loaded = true;
  });
  ASSERT_TRUE(test::waitUntil([&] { return loaded; }));
  ASSERT_TRUE(error.isEmpty()) << error.toStdString();
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->user, QStringLiteral("dana"));
  EXPECT_EQ(kept->refreshToken.toStdString(), backend(index)->signInTokens().refreshToken);
  EXPECT_TRUE(kept->password.isEmpty());

  // The next run: a fresh client signs in from the keychain alone, without a dialog.
  app::ServerSignIn next;
  plugins::MonaiServerConfig config;
  config.url = server.url().toStdString();
  auto fresh = std::make_shared<plugins::MonaiLabelBackend>(config);
  bool retried = false, asked = false;
  QObject::connect(&next, &app::ServerSignIn::signInRequired, [&asked] { asked = true; });
  next.required(server.url(), fresh, QStringLiteral("sign-in needed"),
                [&retried] { retried = true; });
  ASSERT_TRUE(test::waitUntil([&] { return retried || asked; }));
  ASSERT_TRUE(retried);
  core::NullProgress progress;
  EXPECT_FALSE(fresh->info(progress).models.empty());
  EXPECT_FALSE(fresh->signInTokens().accessToken.empty());
  store.remove(server.url(), [](const QString&) {});
}
