#pragma once
// A transaction of voxel writes on a LabelMap. Writes go straight into the map (views see them
// at once); the first write into each 16^3 block keeps a copy of that block's old values, so that
// commit() can encode exactly what changed as a VoxelDelta and rollback() can restore it.
//
// A staged edit (LabelMapEdit::staged) never writes the map: the first write into a block copies
// the block and the writes go into the copy, so a worker thread can work out a large edit while
// the GUI thread keeps drawing the map; commit() returns the delta, which the GUI thread applies
// (VoxelDelta::apply). The map must not change meanwhile (the edit session holds it busy).
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
  // Returned by value (guaranteed elision): `auto edit = LabelMapEdit::staged(map);`.
  static LabelMapEdit staged(const LabelMap& map, PaintPolicy policy = {});
  ~LabelMapEdit();  // rolls back an edit that was neither committed nor rolled back
  LabelMapEdit(const LabelMapEdit&) = delete;
  LabelMapEdit& operator=(const LabelMapEdit&) = delete;

  // Whether the policy and the locks let `value` replace the current value of voxel (i, j, k).
  bool allowed(std::size_t i, std::size_t j, std::size_t k, std::uint16_t value) const;
  // Writes when allowed; returns whether the voxel changed.
  bool write(std::size_t i, std::size_t j, std::size_t k, std::uint16_t value);

  const LabelMap& map() const { return map_; }
  // The value the voxel has in this edit (written, else the map's).
  std::uint16_t value(std::size_t i, std::size_t j, std::size_t k) const;
  const VoxelBox& dirtyBox() const { return dirty_; }
  std::size_t changedVoxels() const { return changed_; }
  // Bytes held by block copies right now (transient; released by commit/rollback).
  std::size_t stagingBytes() const;

  // Ends the edit and returns what it changed (empty when nothing did).
  VoxelDelta commit();
  // Ends the edit and restores every voxel it changed.
  void rollback();

 private:
  LabelMapEdit(LabelMap& map, PaintPolicy policy, bool staged);
  static constexpr std::size_t kBlock = 16;
  std::size_t blockOf(std::size_t i, std::size_t j, std::size_t k) const;
  void snapshotBlock(std::size_t block);
  std::uint16_t oldValue(std::size_t i, std::size_t j, std::size_t k) const;
  std::size_t inBlock(std::size_t i, std::size_t j, std::size_t k) const {
    return ((k % kBlock) * kBlock + (j % kBlock)) * kBlock + (i % kBlock);
  }

  LabelMap& map_;  // never written by a staged edit
  bool staged_ = false;
  PaintPolicy policy_;
  std::vector<bool> lockedLabels_;  // indexed by label value
  Size3 blocks_{};
  std::vector<std::int32_t> slotOfBlock_;  // -1: untouched
  // Per touched block: its old values (in place) or its new values (staged).
  std::vector<std::unique_ptr<std::uint16_t[]>> snapshots_;
  VoxelBox dirty_;
  std::size_t changed_ = 0;
  bool open_ = true;
};

}  // namespace delineate::core
