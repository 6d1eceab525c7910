#pragma once
// The passwords and tokens of DICOMweb nodes: kept in the system keychain (one entry per base
// URL, through CredentialStore, never in the settings) and in memory for the session once read
// or typed. A job that talks to a DICOMweb node asks here first; a node without authentication,
// or a DIMSE node, is answered at once with an empty secret.
#include <QObject>
#include <QString>
#include <functional>
#include <string>

#include "core/pacs/DicomNode.h"

namespace delineate::app {

class DicomWebSecrets {
 public:
  // `done(secret, problem)` on the GUI thread: problem is empty when the secret is known, else
  // it says why not (nothing kept for the node, the keychain failed). Called at once when the
  // secret is in memory; `context` ends the wait when it is destroyed.
  static void fetch(const core::pacs::DicomNode& node, QObject* context,
                    std::function<void(std::string secret, QString problem)> done);
  // Kept in memory now and written to the keychain (its failure only means "for this session").
  static void remember(const core::pacs::DicomNode& node, const std::string& secret);
  static void forget(const core::pacs::DicomNode& node);

  static bool needsSecret(const core::pacs::DicomNode& node) {
    return node.isDicomWeb() && node.auth != core::pacs::WebAuth::None;
  }
};

}  // namespace delineate::app
