#pragma once
// The voxels of one segment as a 0/1 mask over its label map's grid, for an AI request that
// refines the segment (InferRequest::initialMask). The same mask object comes back while the
// label map, the label and the map's version are unchanged, so that a backend that sent it
// once (nnInteractive's initial segmentation) sees it is the same and does not send it again.
// Thread-safe: the app builds the mask in its AI job, from a worker copy of the map.
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/model/LabelMap.h"

namespace delineate::annotation {

class SegmentMaskCache {
 public:
  // Null when the segment has no voxel.
  std::shared_ptr<const std::vector<std::uint8_t>> maskOf(const core::LabelMap& map,
                                                          std::uint16_t label) {
    return maskOf(map, &map, map.version(), label);
  }
  // The same, reading the voxels from `copy` (a worker copy of the map `source` at its version
  // `sourceVersion`, on the same grid): the cache is keyed by the source and its version.
  std::shared_ptr<const std::vector<std::uint8_t>> maskOf(const core::LabelMap& copy,
                                                          const core::LabelMap* source,
                                                          std::uint64_t sourceVersion,
                                                          std::uint16_t label);

 private:
  std::mutex mutex_;
  const core::LabelMap* map_ = nullptr;
  std::uint16_t label_ = 0;
  std::uint64_t version_ = 0;
  std::shared_ptr<const std::vector<std::uint8_t>> mask_;
};

}  // namespace delineate::annotation
