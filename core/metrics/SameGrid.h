#pragma once
// The check every metric runs first: reference and test must share one voxel grid.
#include "core/Error.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

// Throws Error(InvalidInput) naming the first difference, e.g. "size 10x10x5 vs 10x10x6".
inline void requireSameGrid(const LabelMap& reference, const LabelMap& test) {
  const std::string difference = reference.geometry().differenceFrom(test.geometry());
  if (!difference.empty()) {
    throw Error(ErrorKind::InvalidInput, test.name(),
                "the test label map is on another grid than the reference: " + difference);
  }
}

}  // namespace delineate::core
