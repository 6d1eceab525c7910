#pragma once
// The old and new values of every voxel an edit changed, run-length encoded over the edited box
// (ITK-SNAP's undo-delta idea): memory follows the edit, not the volume.
#include <cstdint>
#include <vector>

#include "core/model/VoxelBox.h"

namespace delineate::core {

class LabelMap;

class VoxelDelta {
 public:
  struct Run {
    std::uint32_t count;
    std::uint16_t oldValue;
    std::uint16_t newValue;  // equal to oldValue: voxels left unchanged
  };

  VoxelDelta() = default;
  VoxelDelta(VoxelBox box, std::vector<Run> runs, std::size_t changed)
      : box_(box), runs_(std::move(runs)), changed_(changed) {}

  // Writes the new values (redo) or the old ones (undo) into the box of `map`.
  void apply(LabelMap& map, bool forward) const;

  const VoxelBox& box() const { return box_; }
  std::size_t changedVoxels() const { return changed_; }
  std::size_t byteSize() const { return sizeof(*this) + runs_.capacity() * sizeof(Run); }
  bool empty() const { return changed_ == 0; }
  const std::vector<Run>& runs() const { return runs_; }

 private:
  VoxelBox box_;
  std::vector<Run> runs_;
  std::size_t changed_ = 0;
};

}  // namespace delineate::core
