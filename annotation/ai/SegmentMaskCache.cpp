#include "annotation/ai/SegmentMaskCache.h"

namespace delineate::annotation {

std::shared_ptr<const std::vector<std::uint8_t>> SegmentMaskCache::maskOf(
    const core::LabelMap& copy, const core::LabelMap* source, std::uint64_t sourceVersion,
    std::uint16_t label) {
  const std::lock_guard lock(mutex_);
  if (map_ == source && label_ == label && version_ == sourceVersion) {
    return mask_;
  }
  map_ = source;
  label_ = label;
  version_ = sourceVersion;
  auto mask = std::make_shared<std::vector<std::uint8_t>>(copy.voxelCount(), 0);
  const std::uint16_t* data = copy.data();
  bool any = false;
  for (std::size_t i = 0; i < mask->size(); ++i) {
    (*mask)[i] = data[i] == label ? 1 : 0;
    any = any || data[i] == label;
  }
  mask_ = any ? std::move(mask) : nullptr;
  return mask_;
}

}  // namespace delineate::annotation
