#include "annotation/review/RegionAdoption.h"

#include "core/edit/LabelMapEdit.h"

namespace delineate::annotation {

core::VoxelDelta adoptReaderRegion(const core::LabelMap& target, std::uint16_t label,
                                   const std::vector<std::size_t>& voxels,
                                   const std::vector<bool>& marked,
                                   const core::PaintPolicy& policy) {
  auto edit = core::LabelMapEdit::staged(target, policy);
  const core::Size3& s = target.geometry().size;
  const std::uint16_t* ours = target.data();
  for (std::size_t n = 0; n < voxels.size() && n < marked.size(); ++n) {
    const std::size_t v = voxels[n];
    const std::size_t i = v % s[0], j = (v / s[0]) % s[1], k = v / (s[0] * s[1]);
    if (marked[n]) {
      edit.write(i, j, k, label);
    } else if (ours[v] == label) {
      edit.write(i, j, k, 0);
    }
  }
  return edit.commit();
}

}  // namespace delineate::annotation
