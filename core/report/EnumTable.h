#pragma once
// Enumerations of the report model written as text: each value has a key (its spelling in JSON
// files and the audit trail, e.g. "architectural-distortion") and a name as a report shows it (the
// BI-RADS lexicon term, e.g. "Architectural distortion"). Each enumeration lists its values once,
// in a specialisation of `enumEntries<E>()` (BiRads.cpp, Provenance.cpp).
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace delineate::core::report {

template <class E>
struct EnumEntry {
  E value;
  const char* key;
  const char* name;
};

template <class E>
std::span<const EnumEntry<E>> enumEntries();

// The key of `value` ("?" for a value the table does not list).
template <class E>
const char* keyOf(E value) {
  for (const auto& e : enumEntries<E>()) {
    if (e.value == value) {
      return e.key;
    }
  }
  return "?";
}

// The name a report shows ("?" for a value the table does not list).
template <class E>
const char* nameOf(E value) {
  for (const auto& e : enumEntries<E>()) {
    if (e.value == value) {
      return e.name;
    }
  }
  return "?";
}

template <class E>
std::optional<E> parseKey(std::string_view key) {
  for (const auto& e : enumEntries<E>()) {
    if (key == e.key) {
      return e.value;
    }
  }
  return std::nullopt;
}

// "a, b, c, d": the accepted keys, for error messages.
template <class E>
std::string keyList() {
  std::string out;
  for (const auto& e : enumEntries<E>()) {
    out += (out.empty() ? "" : ", ") + std::string(e.key);
  }
  return out;
}

}  // namespace delineate::core::report
