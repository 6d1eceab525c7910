#pragma once
// The voxels of one segment as a 0/1 mask over its label map's grid, for an AI request that
// refines the segment (InferRequest::initialMask). The same mask object comes back while the
// label map, the label and the map's version are unchanged, so that a backend that sent it
// once (nnInteractive's initial segmentation) sees it is the same and does not send it again.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/model/LabelMap.h"

namespace delineate::annotation {

class SegmentMaskCache {
 public:
  // Null when the segment has no voxel.
  std::shared_ptr<const std::vector<std::uint8_t>> maskOf(const core::LabelMap& map,
                                                          std::uint16_t label);

 private:
  const core::LabelMap* map_ = nullptr;
  std::uint16_t label_ = 0;
  std::uint64_t version_ = 0;
  std::shared_ptr<const std::vector<std::uint8_t>> mask_;
};

}  // namespace delineate::annotation
