#include "app/gui/editing/SegmentTableCommand.h"

#include "core/model/LabelMap.h"

namespace delineate::app {

SegmentTableCommand::SegmentTableCommand(std::shared_ptr<core::LabelMap> map,
                                         core::VoxelDelta delta, std::string text,
                                         std::vector<core::Segment> before,
                                         std::vector<core::Segment> after,
                                         std::function<void()> tableChanged)
    : core::VoxelEditCommand(std::move(map), std::move(delta), std::move(text)),
      before_(std::move(before)),
      after_(std::move(after)),
      tableChanged_(std::move(tableChanged)) {}

void SegmentTableCommand::apply() {
  core::VoxelEditCommand::apply();
  map()->segments() = after_;
  if (tableChanged_) {
    tableChanged_();
  }
}

void SegmentTableCommand::revert() {
  core::VoxelEditCommand::revert();
  map()->segments() = before_;
  if (tableChanged_) {
    tableChanged_();
  }
}

std::size_t SegmentTableCommand::byteSize() const {
  std::size_t n = core::VoxelEditCommand::byteSize() + sizeof(*this);
  for (const auto* table : {&before_, &after_}) {
    for (const core::Segment& s : *table) {
      n += sizeof(s) + s.name.size() + s.description.size();
    }
  }
  return n;
}

}  // namespace delineate::app
