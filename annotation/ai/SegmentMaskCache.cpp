#include "annotation/ai/SegmentMaskCache.h"

namespace delineate::annotation {

std::shared_ptr<const std::vector<std::uint8_t>> SegmentMaskCache::maskOf(const core::LabelMap& map,
                                                                          std::uint16_t label) {
  if (map_ == &map && label_ == label && version_ == map.version()) {
    return mask_;
  }
  map_ = &map;
  label_ = label;
  version_ = map.version();
  auto mask = std::make_shared<std::vector<std::uint8_t>>(map.voxelCount(), 0);
  const std::uint16_t* data = map.data();
  bool any = false;
  for (std::size_t i = 0; i < mask->size(); ++i) {
    (*mask)[i] = data[i] == label ? 1 : 0;
    any = any || data[i] == label;
  }
  mask_ = any ? std::move(mask) : nullptr;
  return mask_;
}

}  // namespace delineate::annotation
