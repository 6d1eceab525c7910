#include "core/edit/VoxelDelta.h"

#include "core/model/LabelMap.h"

namespace delineate::core {

void VoxelDelta::apply(LabelMap& map, bool forward) const {
  if (box_.empty()) {
    return;
  }
  std::uint16_t* data = map.mutableData();
  const Size3& size = map.geometry().size;
  const std::size_t width = box_.hi[0] - box_.lo[0];
  std::size_t x = 0, y = box_.lo[1], z = box_.lo[2];
  for (const Run& run : runs_) {
    std::size_t left = run.count;
    while (left > 0) {
      const std::size_t take = std::min(left, width - x);
      if (run.oldValue != run.newValue) {
        std::uint16_t* p = data + (box_.lo[0] + x) + size[0] * (y + size[1] * z);
        std::fill(p, p + take, forward ? run.newValue : run.oldValue);
      }
      left -= take;
      x += take;
      if (x == width) {
        x = 0;
        if (++y == box_.hi[1]) {
          y = box_.lo[1];
          ++z;
        }
      }
    }
  }
  map.bumpVersion();
}

}  // namespace delineate::core
