#include "app/gui/ai/CredentialStore.h"

#include <qt6keychain/keychain.h>
#include <QJsonDocument>
#include <QJsonObject>

namespace delineate::app {

CredentialStore::CredentialStore(QString service, QObject* parent)
    : QObject(parent), service_(std::move(service)) {}

QString CredentialStore::key(const QString& server) {
  return QStringLiteral("ai-server:") + server;
}

void CredentialStore::load(const QString& server, Loaded done) {
  auto* job = new QKeychain::ReadPasswordJob(service_, this);
  job->setAutoDelete(true);
  job->setInsecureFallback(false);  // a plain-text file is no place for tokens
  job->setKey(key(server));
  connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job* j) {
    if (j->error() == QKeychain::EntryNotFound) {
      done(std::nullopt, {});
      return;
    }
    if (j->error() != QKeychain::NoError) {
      done(std::nullopt, j->errorString());
      return;
    }
    const QJsonObject o =
        QJsonDocument::fromJson(static_cast<QKeychain::ReadPasswordJob*>(j)->binaryData()).object();
    StoredCredentials c{o.value(QLatin1String("user")).toString(),
                        o.value(QLatin1String("refresh_token")).toString(),
                        o.value(QLatin1String("password")).toString()};
    done(c.user.isEmpty() && c.refreshToken.isEmpty() ? std::nullopt : std::optional(c), {});
  });
  job->start();
}

void CredentialStore::save(const QString& server, const StoredCredentials& c, Done done) {
  QJsonObject o{{QLatin1String("user"), c.user}, {QLatin1String("refresh_token"), c.refreshToken}};
  if (!c.password.isEmpty()) {
    o.insert(QLatin1String("password"), c.password);
  }
  auto* job = new QKeychain::WritePasswordJob(service_, this);
  job->setAutoDelete(true);
  job->setInsecureFallback(false);
  job->setKey(key(server));
  job->setBinaryData(QJsonDocument(o).toJson(QJsonDocument::Compact));
  connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job* j) {
    done(j->error() == QKeychain::NoError ? QString() : j->errorString());
  });
  job->start();
}

void CredentialStore::remove(const QString& server, Done done) {
  auto* job = new QKeychain::DeletePasswordJob(service_, this);
  job->setAutoDelete(true);
  job->setInsecureFallback(false);
  job->setKey(key(server));
  connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job* j) {
    const bool gone = j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound;
    done(gone ? QString() : j->errorString());
  });
  job->start();
}

}  // namespace delineate::app
