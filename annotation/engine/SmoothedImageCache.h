#pragma once
// The edge-preserving smoothed copy of a volume, computed block by block as the segmenters ask
// for regions of it and kept for their next clicks. Smoothing parameters depend on the image
// alone (its global noise estimate), so a cached block is exactly what a fresh computation
// would give: results never depend on what was asked before. Thread-safe.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"
#include "core/model/VoxelBox.h"

namespace delineate::annotation {

class SmoothedImageCache {
 public:
  // When the cached blocks would pass this many bytes, the older ones are dropped.
  explicit SmoothedImageCache(std::size_t maxBytes = std::size_t(256) << 20)
      : maxBytes_(maxBytes) {}

  struct Region {
    std::vector<float> smooth;  // over `box`, x fastest
    double noiseSd = 1;         // the volume's noise estimate the smoothing used
    double rangeSd = 1;         // the bilateral filter's range SD
  };
  // The smoothed values over `box` (clipped to the image). Computes missing blocks on
  // core::hardwareThreads(); throws core::CancelledError when progress is cancelled.
  Region region(const core::Volume& image, const core::VoxelBox& box, core::ProgressSink& progress);

 private:
  static constexpr std::size_t kBlock = 32;
  struct Key {
    std::size_t bx, by, bz;
    bool operator<(const Key& o) const {
      return bx != o.bx ? bx < o.bx : by != o.by ? by < o.by : bz < o.bz;
    }
  };

  std::size_t maxBytes_;
  std::mutex mutex_;
  std::weak_ptr<const core::VoxelBuffer> voxels_;  // the cached volume's buffer
  double noiseSd_ = 0;
  std::map<Key, std::shared_ptr<const std::vector<float>>> blocks_;

  std::vector<float> computeBlock(const core::Volume& image, const Key& key) const;
};

}  // namespace delineate::annotation
