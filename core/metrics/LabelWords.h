#pragma once
// Four uint16 labels read as one 64-bit word, so that runs of equal labels are compared four at a
// time (the metrics' inner loops).
#include <cstdint>
#include <cstring>

namespace delineate::core {

inline std::uint64_t load4(const std::uint16_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace delineate::core
