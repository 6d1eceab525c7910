#include "app/gui/ai/ServerSignIn.h"

#include "app/gui/shell/JobRunner.h"
#include "core/ai/AiBackend.h"

namespace delineate::app {

ServerSignIn::ServerSignIn(QObject* parent)
    : QObject(parent),
      store_(new CredentialStore(QStringLiteral("Delineate"), this)),
      jobs_(new JobRunner(this)) {}

bool ServerSignIn::busy() const {
  return jobs_->busy();
}

void ServerSignIn::setNote(const QString& url, const QString& note) {
  notes_[url] = note;
  Q_EMIT noteChanged(url, note);
}

void ServerSignIn::required(const QString& url, const Backend& backend, const QString& reason,
                            std::function<void()> retry) {
  if (keychainTried_.contains(url)) {
    Q_EMIT signInRequired(url, reason);
    return;
  }
  keychainTried_.insert(url);
  store_->load(url, [this, url, backend, reason, retry](std::optional<StoredCredentials> kept,
                                                        const QString& error) {
    if (!error.isEmpty()) {
      keychainErrors_[url] = error;
    } else if (kept) {
      kept_[url] = *kept;
      if (!kept->password.isEmpty()) {
        signIn(url, backend, kept->user, kept->password, true, retry);
        return;
      }
      if (!kept->refreshToken.isEmpty()) {
        core::ai::SignInTokens tokens;  // renewed on the first call
        tokens.refreshToken = kept->refreshToken.toStdString();
        backend->setSignInTokens(tokens);
        setNote(url, tr("signed in as %1").arg(kept->user));
        retry();
        return;
      }
    }
    Q_EMIT signInRequired(url, reason);
  });
}

void ServerSignIn::signIn(const QString& url, const Backend& backend, const QString& user,
                          const QString& password, bool rememberPassword,
                          std::function<void()> done) {
  const std::string name = user.toStdString(), secret = password.toStdString();
  jobs_->run<core::ai::SignInTokens>(
      tr("Signing in to %1").arg(url),
      [backend, name, secret](core::ProgressSink& progress) {
        return backend->signIn(name, secret, progress);
      },
      [this, url, user, password, rememberPassword, done](core::ai::SignInTokens tokens) {
        const StoredCredentials keep{user, QString::fromStdString(tokens.refreshToken),
                                     rememberPassword ? password : QString()};
        kept_[url] = keep;
        store_->save(url, keep, [this, url, user, done](const QString& error) {
          if (!error.isEmpty()) {
            keychainErrors_[url] = error;
          }
          setNote(url, error.isEmpty()
                           ? tr("signed in as %1").arg(user)
                           : tr("signed in as %1; the system keychain is unavailable (%2), so the "
                                "sign-in is kept for this session only")
                                 .arg(user, error));
          done();
        });
      },
      [this, url](const QString& error, bool cancelled) {
        if (cancelled) {
          setNote(url, tr("sign-in cancelled"));
        } else {
          Q_EMIT signInRequired(url, error);
        }
      });
}

void ServerSignIn::keepRenewedToken(const QString& url, const Backend& backend) {
  if (!kept_.contains(url) || keychainErrors_.contains(url)) {
    return;
  }
  const QString token = QString::fromStdString(backend->signInTokens().refreshToken);
  StoredCredentials& keep = kept_[url];
  if (token.isEmpty() || token == keep.refreshToken) {
    return;
  }
  keep.refreshToken = token;
  store_->save(url, keep, [](const QString&) {});  // a failure only costs a sign-in next run
}

}  // namespace delineate::app
