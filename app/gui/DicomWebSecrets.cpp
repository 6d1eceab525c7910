#include "app/gui/DicomWebSecrets.h"

#include <QPointer>
#include <map>
#include <mutex>

#include "app/gui/CredentialStore.h"

namespace delineate::app {

namespace {

std::mutex& secretsMutex() {
  static std::mutex m;
  return m;
}

// Base URL -> secret, for this session.
std::map<std::string, std::string>& known() {
  static std::map<std::string, std::string> secrets;
  return secrets;
}

QString entryOf(const core::pacs::DicomNode& node) {
  return QStringLiteral("dicomweb:") + QString::fromStdString(node.dicomWebUrl);
}

CredentialStore& store() {
  static auto* s = new CredentialStore;  // lives as long as the app; jobs are its children
  return *s;
}

}  // namespace

void DicomWebSecrets::fetch(const core::pacs::DicomNode& node, QObject* context,
                            std::function<void(std::string, QString)> done) {
  if (!needsSecret(node)) {
    done({}, {});
    return;
  }
  {
    std::lock_guard lock(secretsMutex());
    if (const auto it = known().find(node.dicomWebUrl); it != known().end()) {
      done(it->second, {});
      return;
    }
  }
  QPointer<QObject> alive(context);
  const std::string url = node.dicomWebUrl;
  const QString label = QString::fromStdString(node.label());
  store().load(entryOf(node), [alive, url, label, done = std::move(done)](
                                  std::optional<StoredCredentials> c, const QString& error) {
    if (!alive) {
      return;
    }
    if (!c) {
      done({},
           error.isEmpty()
               ? QObject::tr("No password or token is kept for %1: enter it in Edit > "
                             "Preferences > DICOM nodes.")
                     .arg(label)
               : QObject::tr("The keychain did not give the password of %1: %2").arg(label, error));
      return;
    }
    const std::string secret = c->refreshToken.toStdString();
    {
      std::lock_guard lock(secretsMutex());
      known()[url] = secret;
    }
    done(secret, {});
  });
}

void DicomWebSecrets::remember(const core::pacs::DicomNode& node, const std::string& secret) {
  {
    std::lock_guard lock(secretsMutex());
    known()[node.dicomWebUrl] = secret;
  }
  // The secret goes in the entry's token field (the user name beside it, for people reading the
  // keychain).
  const QString user =
      node.user.empty() ? QStringLiteral("token") : QString::fromStdString(node.user);
  store().save(entryOf(node), {user, QString::fromStdString(secret), {}}, [](const QString&) {});
}

void DicomWebSecrets::forget(const core::pacs::DicomNode& node) {
  {
    std::lock_guard lock(secretsMutex());
    known().erase(node.dicomWebUrl);
  }
  store().remove(entryOf(node), [](const QString&) {});
}

}  // namespace delineate::app
