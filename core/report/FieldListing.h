#pragma once
// A report's fields flattened to (path, value text, AI value text, provenance), the common ground
// for the audit of an edit (what changed between two listings) and for the difference from the AI
// draft. Paths are stable: findings are named by their id ("findings/F2/kind"), not position.
#include <optional>
#include <string>
#include <vector>

#include "core/report/AuditEntry.h"
#include "core/report/FieldValue.h"
#include "core/report/ReportField.h"

namespace delineate::core::report {

struct FieldEntry {
  std::string path;
  std::string value;                   // "" when empty
  std::optional<std::string> aiValue;  // the AI's proposal, if any
  Provenance provenance = Provenance::Manual;
  bool operator==(const FieldEntry&) const = default;
};

using FieldListing = std::vector<FieldEntry>;

template <class T>
void listField(FieldListing& out, std::string path, const ReportField<T>& field) {
  FieldEntry e{std::move(path), field.value() ? valueText(*field.value()) : std::string(),
               std::nullopt, field.provenance()};
  if (field.aiValue()) {
    e.aiValue = valueText(*field.aiValue());
  }
  out.push_back(std::move(e));
}

inline void listPlain(FieldListing& out, std::string path, std::string value) {
  out.push_back({std::move(path), std::move(value), std::nullopt, Provenance::Manual});
}

// The audit entries turning `before` into `after`: "edit" (value changed), "review" (only the
// provenance changed, e.g. an AI value accepted), "add" and "remove" (a path only on one side).
std::vector<AuditEntry> changesBetween(const FieldListing& before, const FieldListing& after,
                                       const std::string& user, const std::string& time);

struct FieldDifference {
  enum class Kind { Changed, Added, Removed };
  Kind kind = Kind::Changed;
  std::string path;
  std::string aiValue;  // the draft's value ("" for Added)
  std::string value;    // the report's value ("" for Removed)
};

// How the report differs from the AI draft it started from: Changed (both have a value, they
// differ), Added (a value where the draft had none, or a finding the reader added), Removed (a
// value or finding of the draft the reader took out). Fields accepted unchanged are not listed.
std::vector<FieldDifference> differencesBetween(const FieldListing& draft,
                                                const FieldListing& report);

}  // namespace delineate::core::report
