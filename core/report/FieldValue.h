#pragma once
// A report field's value as text (for the audit trail and the difference from the AI draft) and as
// JSON (for report files). Values are strings, numbers, or enumerations with an EnumTable.
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>

#include "core/report/EnumTable.h"

namespace delineate::core::report {

template <class T>
nlohmann::json valueToJson(const T& value) {
  if constexpr (std::is_enum_v<T>) {
    return keyOf(value);
  } else {
    return value;
  }
}

// The value `j` holds; nullopt when it is of the wrong type or (enumerations) an unknown key.
template <class T>
std::optional<T> valueFromJson(const nlohmann::json& j) {
  if constexpr (std::is_enum_v<T>) {
    return j.is_string() ? parseKey<T>(j.get_ref<const std::string&>()) : std::nullopt;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return j.is_string() ? std::optional<T>(j.get<std::string>()) : std::nullopt;
  } else if constexpr (std::is_integral_v<T>) {
    return j.is_number_integer() ? std::optional<T>(j.get<T>()) : std::nullopt;
  } else {
    return j.is_number() && std::isfinite(j.get<double>()) ? std::optional<T>(j.get<T>())
                                                           : std::nullopt;
  }
}

// "mass", "4", "12.5", or the string itself.
template <class T>
std::string valueText(const T& value) {
  if constexpr (std::is_enum_v<T>) {
    return keyOf(value);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return value;
  } else {
    return nlohmann::json(value).dump();
  }
}

// What the JSON of values of type T must be, for error messages.
template <class T>
std::string expectedValue() {
  if constexpr (std::is_enum_v<T>) {
    return "one of " + keyList<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "a string";
  } else if constexpr (std::is_integral_v<T>) {
    return "a whole number";
  } else {
    return "a number";
  }
}

}  // namespace delineate::core::report
