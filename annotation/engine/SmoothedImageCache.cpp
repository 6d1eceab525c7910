#include "annotation/engine/SmoothedImageCache.h"

#include <algorithm>

#include "annotation/engine/EdgePreservingSmooth.h"
#include "annotation/engine/NoiseEstimate.h"
#include "annotation/engine/RoiImage.h"
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ParallelFor.h"

namespace delineate::annotation {

namespace {

// Two bilateral passes read two voxels beyond a block.
constexpr std::size_t kHalo = 2;

BilateralParams paramsFor(const core::ImageGeometry& g, double noiseSd) {
  BilateralParams p;
  p.rangeSd = 2.0 * noiseSd;
  p.spatialSdMm = std::min({g.spacing[0], g.spacing[1], g.spacing[2]});
  p.passes = 2;
  p.threads = 1;
  return p;
}

}  // namespace

std::vector<float> SmoothedImageCache::computeBlock(const core::Volume& image,
                                                    const Key& key) const {
  const core::ImageGeometry& g = image.geometry();
  const core::VoxelBox block{
      {key.bx * kBlock, key.by * kBlock, key.bz * kBlock},
      {std::min(g.size[0], (key.bx + 1) * kBlock), std::min(g.size[1], (key.by + 1) * kBlock),
       std::min(g.size[2], (key.bz + 1) * kBlock)}};
  const core::VoxelBox halo = padded(block, {kHalo, kHalo, kHalo}, g.size);
  std::vector<float> values = extractValues(image, halo);
  const core::Size3 hn{halo.hi[0] - halo.lo[0], halo.hi[1] - halo.lo[1], halo.hi[2] - halo.lo[2]};
  core::NullProgress none;
  bilateralSmooth(values, hn, g.spacing, paramsFor(g, noiseSd_), none);
  std::vector<float> out(block.count());
  float* dst = out.data();
  for (std::size_t k = block.lo[2]; k < block.hi[2]; ++k) {
    for (std::size_t j = block.lo[1]; j < block.hi[1]; ++j) {
      const float* src = values.data() + (block.lo[0] - halo.lo[0]) +
                         hn[0] * ((j - halo.lo[1]) + hn[1] * (k - halo.lo[2]));
      dst = std::copy(src, src + (block.hi[0] - block.lo[0]), dst);
    }
  }
  return out;
}

SmoothedImageCache::Region SmoothedImageCache::region(const core::Volume& image,
                                                      const core::VoxelBox& wanted,
                                                      core::ProgressSink& progress) {
  const core::ImageGeometry& g = image.geometry();
  const core::VoxelBox box = intersection(wanted, core::VoxelBox::whole(g.size));
  std::vector<Key> keys, missing;
  for (std::size_t bz = box.lo[2] / kBlock; bz * kBlock < box.hi[2]; ++bz) {
    for (std::size_t by = box.lo[1] / kBlock; by * kBlock < box.hi[1]; ++by) {
      for (std::size_t bx = box.lo[0] / kBlock; bx * kBlock < box.hi[0]; ++bx) {
        keys.push_back({bx, by, bz});
      }
    }
  }
  std::map<Key, std::shared_ptr<const std::vector<float>>> have;
  double noiseSd = 0;
  {
    std::lock_guard lock(mutex_);
    const std::shared_ptr<const core::VoxelBuffer> voxels = image.sharedVoxels();
    if (voxels_.lock() != voxels) {
      voxels_ = voxels;
      blocks_.clear();
      noiseSd_ = estimateNoiseSd(image);
    }
    noiseSd = noiseSd_;
    for (const Key& k : keys) {
      auto it = blocks_.find(k);
      if (it != blocks_.end()) {
        have.emplace(k, it->second);
      } else {
        missing.push_back(k);
      }
    }
  }
  std::vector<std::shared_ptr<const std::vector<float>>> computed(missing.size());
  core::parallelFor(missing.size(), core::hardwareThreads(), progress, [&](std::size_t m) {
    computed[m] = std::make_shared<const std::vector<float>>(computeBlock(image, missing[m]));
  });
  {
    std::lock_guard lock(mutex_);
    std::size_t bytes = 0;
    for (const auto& [k, b] : blocks_) {
      bytes += b->size() * sizeof(float);
    }
    for (std::size_t m = 0; m < missing.size(); ++m) {
      bytes += computed[m]->size() * sizeof(float);
      if (bytes > maxBytes_) {
        blocks_.clear();
        bytes = computed[m]->size() * sizeof(float);
      }
      blocks_[missing[m]] = computed[m];
      have.emplace(missing[m], computed[m]);
    }
  }

  Region out;
  out.noiseSd = noiseSd;
  out.rangeSd = paramsFor(g, noiseSd).rangeSd;
  out.smooth.resize(box.count());
  const std::size_t nx = box.hi[0] - box.lo[0], ny = box.hi[1] - box.lo[1];
  for (const auto& [k, data] : have) {
    const core::VoxelBox block{
        {k.bx * kBlock, k.by * kBlock, k.bz * kBlock},
        {std::min(g.size[0], (k.bx + 1) * kBlock), std::min(g.size[1], (k.by + 1) * kBlock),
         std::min(g.size[2], (k.bz + 1) * kBlock)}};
    const core::VoxelBox common = intersection(block, box);
    const std::size_t bx = block.hi[0] - block.lo[0], by = block.hi[1] - block.lo[1];
    for (std::size_t z = common.lo[2]; z < common.hi[2]; ++z) {
      for (std::size_t y = common.lo[1]; y < common.hi[1]; ++y) {
        const float* src = data->data() + (common.lo[0] - block.lo[0]) +
                           bx * ((y - block.lo[1]) + by * (z - block.lo[2]));
        std::copy(src, src + (common.hi[0] - common.lo[0]),
                  out.smooth.data() + (common.lo[0] - box.lo[0]) +
                      nx * ((y - box.lo[1]) + ny * (z - box.lo[2])));
      }
    }
  }
  return out;
}

}  // namespace delineate::annotation
