#pragma once
// A copy of a label map that worker jobs may read while the GUI thread goes on editing the
// original (measurements, surfaces, recovery snapshots). The GUI thread brings the copy up to date
// in bounded steps: first the whole map, a slab at a time, then only the boxes that edits touched.
// While a job still holds a copy handed out by read(), nothing is written to it; the touched boxes
// wait. So no step on the GUI thread grows with the map, and no worker reads voxels being painted.
#include <cstddef>
#include <memory>
#include <vector>

#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

namespace delineate::core {

class LabelMirror {
 public:
  // Allocates the copy (all zeros; nothing is copied yet). `sourceIsEmpty`: the source holds only
  // zeros too, so the copy is current at once.
  LabelMirror(std::shared_ptr<const LabelMap> source, bool sourceIsEmpty);

  // GUI thread: voxels of `box` changed in the source.
  void touch(const VoxelBox& box);
  // GUI thread: copies at most about `budgetBytes` of outstanding voxels unless a reader holds the
  // copy. True when the copy then equals the source.
  bool update(std::size_t budgetBytes);
  // GUI thread: after update(budgetBytes), the copy (with the source's current segment table) for
  // workers to read, or null when it is not current yet, or would have to change while an earlier
  // reader still holds it (call again a little later). Readers may share one current copy.
  std::shared_ptr<const LabelMap> read(std::size_t budgetBytes = kDefaultBudget);
  bool current() const { return outstanding_.empty(); }
  bool readerActive() const { return copy_.use_count() > 1; }
  const LabelMap* source() const { return source_.get(); }

  // About 10 ms per step while the copy's pages are first touched (bench/editing_gui_thread_
  // benchmark), well under 1 ms per step after.
  static constexpr std::size_t kDefaultBudget = std::size_t(8) << 20;

 private:
  std::shared_ptr<const LabelMap> source_;
  std::shared_ptr<LabelMap> copy_;
  std::vector<VoxelBox> outstanding_;  // boxes still to copy, oldest first
};

}  // namespace delineate::core
