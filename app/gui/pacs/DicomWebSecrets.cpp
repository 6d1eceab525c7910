#include "app/gui/pacs/DicomWebSecrets.h"

#include "app/gui/pacs/KeychainSecrets.h"

namespace delineate::app {

namespace {

const KeychainSecrets& secrets() {
  static const KeychainSecrets s(QStringLiteral("dicomweb:"));
  return s;
}

}  // namespace

void DicomWebSecrets::fetch(const core::pacs::DicomNode& node, QObject* context,
                            std::function<void(std::string, QString)> done) {
  if (!needsSecret(node)) {
    done({}, {});
    return;
  }
  const QString label = QString::fromStdString(node.label());
  secrets().fetch(node.dicomWebUrl, context,
                  [label, done = std::move(done)](std::string secret, QString error, bool found) {
                    if (found) {
                      done(std::move(secret), {});
                      return;
                    }
                    done({}, error.isEmpty()
                                 ? QObject::tr("No password or token is kept for %1: enter it in "
                                               "Edit > Preferences > DICOM nodes.")
                                       .arg(label)
                                 : QObject::tr("The keychain did not give the password of %1: %2")
                                       .arg(label, error));
                  });
}

void DicomWebSecrets::remember(const core::pacs::DicomNode& node, const std::string& secret) {
  // The user name beside it, for people reading the keychain.
  secrets().remember(
      node.dicomWebUrl, secret,
      node.user.empty() ? QStringLiteral("token") : QString::fromStdString(node.user));
}

void DicomWebSecrets::forget(const core::pacs::DicomNode& node) {
  secrets().forget(node.dicomWebUrl);
}

}  // namespace delineate::app
