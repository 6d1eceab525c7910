#pragma once
// An undoable change of a label map's segment table, optionally with voxels (delete a segment
// clears its voxels, merge relabels them): one undo entry for both. It is a VoxelEditCommand, so
// the Document journals its voxels like any edit; `tableChanged` runs after every apply and
// revert so that the new table is journaled and announced too.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/edit/VoxelEditCommand.h"
#include "core/model/Segment.h"

namespace delineate::app {

class SegmentTableCommand : public core::VoxelEditCommand {
 public:
  SegmentTableCommand(std::shared_ptr<core::LabelMap> map, core::VoxelDelta delta, std::string text,
                      std::vector<core::Segment> before, std::vector<core::Segment> after,
                      std::function<void()> tableChanged);

  void apply() override;
  void revert() override;
  std::size_t byteSize() const override;

 private:
  std::vector<core::Segment> before_;
  std::vector<core::Segment> after_;
  std::function<void()> tableChanged_;
};

}  // namespace delineate::app
