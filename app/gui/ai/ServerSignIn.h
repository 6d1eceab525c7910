#pragma once
// Signing in to AI servers that have sign-in on (docs/ai.md, "Signing in"), for the AI controller:
// what the keychain keeps is tried first (once per server and session: the remembered password,
// else the refresh token), then the user is asked (signInRequired; the dock shows the dialog). The
// password grant runs as a job, off the GUI thread. After a sign-in the refresh token, and the
// password only when the user asked for it, go to the keychain; when no keychain answers, the
// status says so and the sign-in lives in memory for the session.
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <functional>
#include <memory>

#include "app/gui/ai/CredentialStore.h"

namespace delineate::core::ai {
class AiBackend;
}

namespace delineate::app {

class JobRunner;

class ServerSignIn : public QObject {
  Q_OBJECT

 public:
  explicit ServerSignIn(QObject* parent = nullptr);

  using Backend = std::shared_ptr<core::ai::AiBackend>;

  // `url` answered that it wants a (new) sign-in, for `reason`. `retry` runs when the keychain
  // gave something to try; otherwise signInRequired is emitted.
  void required(const QString& url, const Backend& backend, const QString& reason,
                std::function<void()> retry);
  // The password grant as a job; then the keychain; then `done`. A failure emits
  // signInRequired with the server's answer.
  void signIn(const QString& url, const Backend& backend, const QString& user,
              const QString& password, bool rememberPassword, std::function<void()> done);
  // Keeps the backend's current refresh token in the keychain when the server renewed it.
  void keepRenewedToken(const QString& url, const Backend& backend);

  // For the status line: "signed in as NAME", and that the keychain is unavailable if so.
  QString note(const QString& url) const { return notes_.value(url); }
  // The user name last used for `url` (the dialog's default).
  QString user(const QString& url) const { return kept_.value(url).user; }
  bool busy() const;
  // The sign-in under way, for the AI panel's progress and Cancel.
  JobRunner* jobs() const { return jobs_; }

 Q_SIGNALS:
  void signInRequired(const QString& url, const QString& reason);
  void noteChanged(const QString& url, const QString& note);

 private:
  void setNote(const QString& url, const QString& note);

  CredentialStore* store_;
  JobRunner* jobs_;
  QSet<QString> keychainTried_;
  QHash<QString, StoredCredentials> kept_;  // what the keychain holds (or would) per server
  QHash<QString, QString> keychainErrors_;
  QHash<QString, QString> notes_;
};

}  // namespace delineate::app
