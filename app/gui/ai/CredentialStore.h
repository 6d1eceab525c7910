#pragma once
// What the app keeps per AI server between runs, in the system keychain (Secret Service on Linux,
// through QtKeychain): the user name, the refresh token and, only when the user ticked "Remember
// password", the password. One entry per server URL. Never in QSettings, never in a log. The
// calls are asynchronous (the keychain may ask the user to unlock it); the callbacks run on the
// GUI thread. When no keychain answers (no Secret Service on the D-Bus), the callbacks get its
// error text and the caller keeps the sign-in in memory for the session.
#include <QObject>
#include <QString>
#include <functional>
#include <optional>

namespace delineate::app {

struct StoredCredentials {
  QString user;
  QString refreshToken;
  QString password;  // empty unless "Remember password" was ticked
};

class CredentialStore : public QObject {
  Q_OBJECT

 public:
  explicit CredentialStore(QString service = QStringLiteral("Delineate"),
                           QObject* parent = nullptr);

  // `error` empty: read (nullopt when nothing is kept for `server`); else the keychain failed.
  using Loaded = std::function<void(std::optional<StoredCredentials>, const QString& error)>;
  using Done = std::function<void(const QString& error)>;

  void load(const QString& server, Loaded done);
  void save(const QString& server, const StoredCredentials& credentials, Done done);
  void remove(const QString& server, Done done);

 private:
  static QString key(const QString& server);

  QString service_;
};

}  // namespace delineate::app
