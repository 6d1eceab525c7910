#pragma once
// Which voxels an edit may change: the paint-over policy of 3D Slicer's and ITK-SNAP's editors.
// Locked segments are never changed, whatever the policy.
#include <cstdint>

namespace delineate::core {

enum class OverwriteMode {
  All,            // overwrite any unlocked segment
  EmptyOnly,      // write only where no segment is yet
  InsideSegment,  // write only inside `insideLabel`
};

struct PaintPolicy {
  OverwriteMode mode = OverwriteMode::All;
  std::uint16_t insideLabel = 0;
};

}  // namespace delineate::core
