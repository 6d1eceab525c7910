#include "app/gui/pacs/KeychainSecrets.h"

#include <QPointer>
#include <map>
#include <mutex>

#include "app/gui/ai/CredentialStore.h"

namespace delineate::app {

namespace {

std::mutex& secretsMutex() {
  static std::mutex m;
  return m;
}

// Entry name (prefix + address) -> secret, for this session.
std::map<QString, std::string>& known() {
  static std::map<QString, std::string> secrets;
  return secrets;
}

CredentialStore& store() {
  static auto* s = new CredentialStore;  // lives as long as the app; jobs are its children
  return *s;
}

}  // namespace

void KeychainSecrets::fetch(const std::string& address, QObject* context,
                            std::function<void(std::string, QString, bool)> done) const {
  const QString entry = prefix_ + QString::fromStdString(address);
  {
    std::lock_guard lock(secretsMutex());
    if (const auto it = known().find(entry); it != known().end()) {
      done(it->second, {}, true);
      return;
    }
  }
  QPointer<QObject> alive(context);
  store().load(entry, [alive, entry, done = std::move(done)](std::optional<StoredCredentials> c,
                                                             const QString& error) {
    if (!alive) {
      return;
    }
    if (!c) {
      done({}, error, false);
      return;
    }
    const std::string secret = c->refreshToken.toStdString();
    {
      std::lock_guard lock(secretsMutex());
      known()[entry] = secret;
    }
    done(secret, {}, true);
  });
}

void KeychainSecrets::remember(const std::string& address, const std::string& secret,
                               const QString& user) const {
  const QString entry = prefix_ + QString::fromStdString(address);
  {
    std::lock_guard lock(secretsMutex());
    known()[entry] = secret;
  }
  // The secret goes in the entry's token field.
  store().save(entry, {user, QString::fromStdString(secret), {}}, [](const QString&) {});
}

void KeychainSecrets::forget(const std::string& address) const {
  const QString entry = prefix_ + QString::fromStdString(address);
  {
    std::lock_guard lock(secretsMutex());
    known().erase(entry);
  }
  store().remove(entry, [](const QString&) {});
}

}  // namespace delineate::app
