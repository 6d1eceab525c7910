#pragma once
// JSON has no infinity or NaN: the metrics' JSON files write them as the strings "inf", "-inf"
// and "nan" (docs/metrics.md).
#include <cmath>
#include <nlohmann/json.hpp>

namespace delineate::core {

inline nlohmann::ordered_json jsonNumber(double value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  return value;
}

}  // namespace delineate::core
