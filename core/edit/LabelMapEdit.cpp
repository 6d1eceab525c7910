#include "core/edit/LabelMapEdit.h"

#include <algorithm>

namespace delineate::core {

LabelMapEdit::LabelMapEdit(LabelMap& map, PaintPolicy policy) : LabelMapEdit(map, policy, false) {}

LabelMapEdit LabelMapEdit::staged(const LabelMap& map, PaintPolicy policy) {
  // Never written through: every write of a staged edit goes into its own block copies.
  return LabelMapEdit(const_cast<LabelMap&>(map), policy, true);
}

LabelMapEdit::LabelMapEdit(LabelMap& map, PaintPolicy policy, bool staged)
    : map_(map), staged_(staged), policy_(policy), lockedLabels_(65536, false) {
  if (!staged_) {
    map_.editOpened();  // a staged edit runs on a worker and leaves the map as it is
  }
  for (const Segment& s : map.segments()) {
    lockedLabels_[s.label] = s.locked;
  }
  const Size3& size = map.geometry().size;
  for (int a = 0; a < 3; ++a) {
    blocks_[a] = (size[a] + kBlock - 1) / kBlock;
  }
  slotOfBlock_.assign(blocks_[0] * blocks_[1] * blocks_[2], -1);
}

LabelMapEdit::~LabelMapEdit() {
  if (open_) {
    rollback();
  }
  if (!staged_) {
    map_.editClosed();
  }
}

std::uint16_t LabelMapEdit::value(std::size_t i, std::size_t j, std::size_t k) const {
  if (staged_) {
    const std::int32_t slot = slotOfBlock_[blockOf(i, j, k)];
    if (slot >= 0) {
      return snapshots_[static_cast<std::size_t>(slot)][inBlock(i, j, k)];
    }
  }
  return map_.at(i, j, k);
}

bool LabelMapEdit::allowed(std::size_t i, std::size_t j, std::size_t k, std::uint16_t value) const {
  const std::uint16_t current = this->value(i, j, k);
  if (current == value || lockedLabels_[current] || lockedLabels_[value]) {
    return false;
  }
  switch (policy_.mode) {
    case OverwriteMode::All:
      return true;
    case OverwriteMode::EmptyOnly:
      return current == 0;
    case OverwriteMode::InsideSegment:
      return current == policy_.insideLabel;
  }
  return false;
}

std::size_t LabelMapEdit::blockOf(std::size_t i, std::size_t j, std::size_t k) const {
  return i / kBlock + blocks_[0] * (j / kBlock + blocks_[1] * (k / kBlock));
}

void LabelMapEdit::snapshotBlock(std::size_t block) {
  auto copy = std::make_unique<std::uint16_t[]>(kBlock * kBlock * kBlock);
  const Size3& size = map_.geometry().size;
  const std::size_t bi = block % blocks_[0];
  const std::size_t bj = (block / blocks_[0]) % blocks_[1];
  const std::size_t bk = block / (blocks_[0] * blocks_[1]);
  const std::uint16_t* data = map_.data();
  for (std::size_t z = 0; z < kBlock && bk * kBlock + z < size[2]; ++z) {
    for (std::size_t y = 0; y < kBlock && bj * kBlock + y < size[1]; ++y) {
      const std::size_t x0 = bi * kBlock;
      const std::size_t w = std::min(kBlock, size[0] - x0);
      const std::uint16_t* src = data + map_.index(x0, bj * kBlock + y, bk * kBlock + z);
      std::copy(src, src + w, copy.get() + (z * kBlock + y) * kBlock);
    }
  }
  slotOfBlock_[block] = static_cast<std::int32_t>(snapshots_.size());
  snapshots_.push_back(std::move(copy));
}

bool LabelMapEdit::write(std::size_t i, std::size_t j, std::size_t k, std::uint16_t value) {
  if (!open_ || !allowed(i, j, k, value)) {
    return false;
  }
  const std::size_t block = blockOf(i, j, k);
  if (slotOfBlock_[block] < 0) {
    snapshotBlock(block);
  }
  if (staged_) {
    snapshots_[static_cast<std::size_t>(slotOfBlock_[block])][inBlock(i, j, k)] = value;
  } else {
    map_.mutableData()[map_.index(i, j, k)] = value;
  }
  dirty_.include(i, j, k);
  ++changed_;
  return true;
}

std::uint16_t LabelMapEdit::oldValue(std::size_t i, std::size_t j, std::size_t k) const {
  const std::int32_t slot = staged_ ? -1 : slotOfBlock_[blockOf(i, j, k)];
  if (slot < 0) {
    return map_.at(i, j, k);
  }
  return snapshots_[static_cast<std::size_t>(slot)][inBlock(i, j, k)];
}

std::size_t LabelMapEdit::stagingBytes() const {
  return snapshots_.size() * kBlock * kBlock * kBlock * sizeof(std::uint16_t) +
         slotOfBlock_.size() * sizeof(std::int32_t);
}

VoxelDelta LabelMapEdit::commit() {
  open_ = false;
  std::vector<VoxelDelta::Run> runs;
  std::size_t changed = 0;
  if (!dirty_.empty()) {
    const std::uint16_t* data = map_.data();
    VoxelDelta::Run current{0, 0, 0};
    for (std::size_t k = dirty_.lo[2]; k < dirty_.hi[2]; ++k) {
      for (std::size_t j = dirty_.lo[1]; j < dirty_.hi[1]; ++j) {
        const std::uint16_t* row = data + map_.index(0, j, k);
        for (std::size_t i = dirty_.lo[0]; i < dirty_.hi[0]; ++i) {
          const std::uint16_t now = staged_ ? value(i, j, k) : row[i];
          const std::uint16_t before = oldValue(i, j, k);
          // Unchanged voxels all share one run kind, whatever their value.
          const std::uint16_t o = before == now ? 0 : before;
          const std::uint16_t nv = before == now ? 0 : now;
          if (o != nv) {
            ++changed;
          }
          if (current.count > 0 && current.oldValue == o && current.newValue == nv &&
              current.count < UINT32_MAX) {
            ++current.count;
          } else {
            if (current.count > 0) {
              runs.push_back(current);
            }
            current = {1, o, nv};
          }
        }
      }
    }
    if (current.count > 0) {
      runs.push_back(current);
    }
    runs.shrink_to_fit();
    if (!staged_) {
      map_.bumpVersion();
    }
  }
  snapshots_.clear();
  slotOfBlock_.clear();
  slotOfBlock_.shrink_to_fit();
  return VoxelDelta(dirty_, std::move(runs), changed);
}

void LabelMapEdit::rollback() {
  if (!open_) {
    return;
  }
  VoxelDelta delta = commit();
  if (!staged_) {
    delta.apply(map_, false);
  }
}

}  // namespace delineate::core
