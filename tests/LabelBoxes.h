#pragma once
// Test label maps drawn as boxes: `value` written into [lo, hi) of `map` (voxel indices).
#include <cstdint>

#include "core/model/LabelMap.h"

namespace delineate::test {

inline void fillLabelBox(core::LabelMap& map, std::uint16_t value, core::Size3 lo, core::Size3 hi) {
  for (std::size_t k = lo[2]; k < hi[2]; ++k) {
    for (std::size_t j = lo[1]; j < hi[1]; ++j) {
      for (std::size_t i = lo[0]; i < hi[0]; ++i) {
        map.mutableData()[map.index(i, j, k)] = value;
      }
    }
  }
}

}  // namespace delineate::test
