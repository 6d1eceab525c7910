// Differences between two field listings: the audit of an edit, the difference from the AI draft.
#include "core/report/FieldListing.h"

#include <map>

namespace delineate::core::report {

namespace {
std::map<std::string, const FieldEntry*> byPath(const FieldListing& listing) {
  std::map<std::string, const FieldEntry*> out;
  for (const FieldEntry& e : listing) {
    out[e.path] = &e;
  }
  return out;
}
}  // namespace

std::vector<AuditEntry> changesBetween(const FieldListing& before, const FieldListing& after,
                                       const std::string& user, const std::string& time) {
  const auto old = byPath(before);
  const auto now = byPath(after);
  std::vector<AuditEntry> out;
  for (const FieldEntry& e : before) {
    if (!now.contains(e.path)) {
      out.push_back({time, user, "remove", e.path, e.value, ""});
    }
  }
  for (const FieldEntry& e : after) {
    const auto it = old.find(e.path);
    if (it == old.end()) {
      out.push_back({time, user, "add", e.path, "", e.value});
    } else if (it->second->value != e.value) {
      out.push_back({time, user, "edit", e.path, it->second->value, e.value});
    } else if (it->second->provenance != e.provenance) {
      out.push_back({time, user, "review", e.path, e.value, e.value});
    }
  }
  return out;
}

std::vector<FieldDifference> differencesBetween(const FieldListing& draft,
                                                const FieldListing& report) {
  const auto ai = byPath(draft);
  const auto now = byPath(report);
  std::vector<FieldDifference> out;
  for (const FieldEntry& e : report) {
    const auto it = ai.find(e.path);
    if (it == ai.end()) {
      if (!e.value.empty()) {
        out.push_back({FieldDifference::Kind::Added, e.path, "", e.value});
      }
    } else if (it->second->value != e.value) {
      const auto kind = it->second->value.empty() ? FieldDifference::Kind::Added
                        : e.value.empty()         ? FieldDifference::Kind::Removed
                                                  : FieldDifference::Kind::Changed;
      out.push_back({kind, e.path, it->second->value, e.value});
    }
  }
  for (const FieldEntry& e : draft) {
    if (!now.contains(e.path) && !e.value.empty()) {
      out.push_back({FieldDifference::Kind::Removed, e.path, e.value, ""});
    }
  }
  return out;
}

}  // namespace delineate::core::report
