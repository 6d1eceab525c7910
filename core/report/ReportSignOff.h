#pragma once
// The signature of a report and its addenda. Signing records the reader's name and the time and
// locks the report: later changes are addenda, each signed on its own. Signing is refused while
// required fields are missing (MissingFieldsError lists them).
#include <optional>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/report/AuditEntry.h"

namespace delineate::core::report {

struct Signature {
  std::string name;
  std::string time;  // ISO 8601 UTC
  bool operator==(const Signature&) const = default;
};

struct Addendum {
  std::string text;
  Signature signature;
  bool operator==(const Addendum&) const = default;
};

// Signing refused: `missing()` names each missing field ("assessment category", "finding F2:
// kind"). The message lists them all.
class MissingFieldsError : public Error {
 public:
  explicit MissingFieldsError(std::vector<std::string> missing);
  const std::vector<std::string>& missing() const { return missing_; }

 private:
  std::vector<std::string> missing_;
};

// An edit of a signed report.
class ReportLockedError : public Error {
 public:
  explicit ReportLockedError(const std::string& what);
};

class ReportSignOff {
 public:
  const std::optional<Signature>& signature() const { return signature_; }
  const std::vector<Addendum>& addenda() const { return addenda_; }
  bool locked() const { return signature_.has_value(); }

  // Throws ReportLockedError("cannot <what>: the report was signed by ... at ...") when signed.
  void requireUnlocked(const std::string& what) const;
  // Signs. Throws MissingFieldsError with `missing` (plus "signer name" / "signing time" when
  // empty) if anything is missing, ReportLockedError when already signed.
  AuditEntry sign(const Signature& signature, std::vector<std::string> missing);
  // Appends a signed addendum to a signed report. Throws ReportLockedError when the report is not
  // signed yet (edit it instead), MissingFieldsError when text, name or time is empty.
  AuditEntry addAddendum(const std::string& text, const Signature& signature);

  static ReportSignOff restore(std::optional<Signature> signature, std::vector<Addendum> addenda);
  bool operator==(const ReportSignOff&) const = default;

 private:
  std::optional<Signature> signature_;
  std::vector<Addendum> addenda_;
};

}  // namespace delineate::core::report
