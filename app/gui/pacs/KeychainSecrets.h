#pragma once
// Secrets kept per address in the system keychain (through CredentialStore, never in the
// settings) and in memory for the session once read or typed: DICOMweb nodes' passwords and
// tokens, AI servers' API keys. Each kind has its own prefix in the keychain's entry names.
#include <QObject>
#include <QString>
#include <functional>
#include <string>

namespace delineate::app {

class KeychainSecrets {
 public:
  // `prefix`: "dicomweb:", "aikey:".
  explicit KeychainSecrets(QString prefix) : prefix_(std::move(prefix)) {}

  // `done(secret, problem, found)` on the GUI thread: `found` false when nothing is kept for
  // `address` (problem empty) or the keychain failed (problem says how). Called at once when the
  // secret is in memory; `context` ends the wait when it is destroyed.
  void fetch(const std::string& address, QObject* context,
             std::function<void(std::string secret, QString problem, bool found)> done) const;
  // Kept in memory now and written to the keychain (its failure only means "for this session").
  // `user` is shown beside it to people reading the keychain.
  void remember(const std::string& address, const std::string& secret,
                const QString& user = QStringLiteral("token")) const;
  void forget(const std::string& address) const;

 private:
  QString prefix_;
};

}  // namespace delineate::app
