#pragma once
// A transaction of voxel writes on a LabelMap. Writes go straight into the map (views see them
// at once); the first write into each 16^3 block keeps a copy of that block's old values, so that
// commit() can encode exactly what changed as a VoxelDelta and rollback() can restore it.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/edit/PaintPolicy.h"
#include "core/edit/VoxelDelta.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

class LabelMapEdit {
 public:
  explicit LabelMapEdit(LabelMap& map, PaintPolicy policy = {});
  ~LabelMapEdit();  // rolls back an edit that was neither committed nor rolled back
  LabelMapEdit(const LabelMapEdit&) = delete;
  LabelMapEdit& operator=(const LabelMapEdit&) = delete;

  // Whether the policy and the locks let `value` replace the current value of voxel n.
  bool allowed(std::size_t n, std::uint16_t value) const;
  // Writes when allowed; returns whether the voxel changed.
  bool write(std::size_t i, std::size_t j, std::size_t k, std::uint16_t value);

  LabelMap& map() { return map_; }
  const VoxelBox& dirtyBox() const { return dirty_; }
  std::size_t changedVoxels() const { return changed_; }
  // Bytes held by block copies right now (transient; released by commit/rollback).
  std::size_t stagingBytes() const;

  // Ends the edit and returns what it changed (empty when nothing did).
  VoxelDelta commit();
  // Ends the edit and restores every voxel it changed.
  void rollback();

 private:
  static constexpr std::size_t kBlock = 16;
  std::size_t blockOf(std::size_t i, std::size_t j, std::size_t k) const;
  void snapshotBlock(std::size_t block);
  std::uint16_t oldValue(std::size_t i, std::size_t j, std::size_t k) const;

  LabelMap& map_;
  PaintPolicy policy_;
  std::vector<bool> lockedLabels_;  // indexed by label value
  Size3 blocks_{};
  std::vector<std::int32_t> slotOfBlock_;  // -1: untouched
  std::vector<std::unique_ptr<std::uint16_t[]>> snapshots_;
  VoxelBox dirty_;
  std::size_t changed_ = 0;
  bool open_ = true;
};

}  // namespace delineate::core
