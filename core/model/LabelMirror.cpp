#include "core/model/LabelMirror.h"

#include <algorithm>
#include <cstring>

namespace delineate::core {

namespace {

constexpr std::size_t kMaxBoxes = 64;  // beyond this, touched boxes merge into their union

bool overlaps(const VoxelBox& a, const VoxelBox& b) {
  for (int ax = 0; ax < 3; ++ax) {
    if (a.hi[ax] <= b.lo[ax] || b.hi[ax] <= a.lo[ax]) {
      return false;
    }
  }
  return true;
}

}  // namespace

LabelMirror::LabelMirror(std::shared_ptr<const LabelMap> source, bool sourceIsEmpty)
    : source_(std::move(source)),
      copy_(std::make_shared<LabelMap>(source_->name(), source_->geometry(), source_->segments())) {
  if (!sourceIsEmpty) {
    outstanding_.push_back(VoxelBox::whole(source_->geometry().size));
  }
}

void LabelMirror::touch(const VoxelBox& box) {
  if (box.empty()) {
    return;
  }
  for (VoxelBox& b : outstanding_) {
    if (overlaps(b, box)) {
      b.include(box);
      return;
    }
  }
  outstanding_.push_back(box);
  if (outstanding_.size() > kMaxBoxes) {
    VoxelBox all;
    for (const VoxelBox& b : outstanding_) {
      all.include(b);
    }
    outstanding_.assign(1, all);
  }
}

bool LabelMirror::update(std::size_t budgetBytes) {
  if (readerActive()) {
    return current();
  }
  const Size3& n = source_->geometry().size;
  const std::uint16_t* src = source_->data();
  std::uint16_t* dst = copy_->mutableData();
  std::size_t spent = 0;
  while (!outstanding_.empty() && spent < budgetBytes) {
    VoxelBox& b = outstanding_.front();
    const std::size_t rowBytes = (b.hi[0] - b.lo[0]) * sizeof(std::uint16_t);
    const std::size_t sliceBytes = std::max<std::size_t>(1, rowBytes * (b.hi[1] - b.lo[1]));
    // Whole slices of the box, at least one, as many as the budget allows.
    const std::size_t slices =
        std::clamp<std::size_t>((budgetBytes - spent) / sliceBytes, 1, b.hi[2] - b.lo[2]);
    for (std::size_t k = b.lo[2]; k < b.lo[2] + slices; ++k) {
      for (std::size_t j = b.lo[1]; j < b.hi[1]; ++j) {
        const std::size_t at = b.lo[0] + n[0] * (j + n[1] * k);
        std::memcpy(dst + at, src + at, rowBytes);
      }
    }
    spent += slices * sliceBytes;
    b.lo[2] += slices;
    if (b.empty()) {
      outstanding_.erase(outstanding_.begin());
    }
  }
  return current();
}

std::shared_ptr<const LabelMap> LabelMirror::read(std::size_t budgetBytes) {
  if (!update(budgetBytes)) {
    return nullptr;
  }
  // Readers share one current copy; only a change to it must wait for them.
  if (copy_->segments() != source_->segments() || copy_->name() != source_->name()) {
    if (readerActive()) {
      return nullptr;
    }
    copy_->segments() = source_->segments();
    copy_->setName(source_->name());
  }
  return copy_;
}

}  // namespace delineate::core
