// Signing, locking and addenda.
#include "core/report/ReportSignOff.h"

namespace delineate::core::report {

namespace {
std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) {
    out += (out.empty() ? "" : ", ") + s;
  }
  return out;
}

void requireSigner(const Signature& s, std::vector<std::string>& missing) {
  if (s.name.empty()) {
    missing.push_back("signer name");
  }
  if (s.time.empty()) {
    missing.push_back("signing time");
  }
}
}  // namespace

MissingFieldsError::MissingFieldsError(std::vector<std::string> missing)
    : Error(ErrorKind::InvalidInput, "report", "cannot sign: missing " + joined(missing)),
      missing_(std::move(missing)) {}

ReportLockedError::ReportLockedError(const std::string& what)
    : Error(ErrorKind::InvalidInput, "report", what) {}

void ReportSignOff::requireUnlocked(const std::string& what) const {
  if (signature_) {
    throw ReportLockedError("cannot " + what + ": the report was signed by " + signature_->name +
                            " at " + signature_->time + "; add an addendum instead");
  }
}

AuditEntry ReportSignOff::sign(const Signature& signature, std::vector<std::string> missing) {
  requireUnlocked("sign");
  requireSigner(signature, missing);
  if (!missing.empty()) {
    throw MissingFieldsError(std::move(missing));
  }
  signature_ = signature;
  return {signature.time, signature.name, "sign", "", "", "signed"};
}

AuditEntry ReportSignOff::addAddendum(const std::string& text, const Signature& signature) {
  if (!signature_) {
    throw ReportLockedError("cannot add an addendum: the report is not signed yet (edit it)");
  }
  std::vector<std::string> missing;
  if (text.empty()) {
    missing.push_back("addendum text");
  }
  requireSigner(signature, missing);
  if (!missing.empty()) {
    throw MissingFieldsError(std::move(missing));
  }
  addenda_.push_back({text, signature});
  return {signature.time,
          signature.name,
          "addendum",
          "addenda/" + std::to_string(addenda_.size()),
          "",
          text};
}

ReportSignOff ReportSignOff::restore(std::optional<Signature> signature,
                                     std::vector<Addendum> addenda) {
  ReportSignOff s;
  s.signature_ = std::move(signature);
  s.addenda_ = std::move(addenda);
  return s;
}

}  // namespace delineate::core::report
