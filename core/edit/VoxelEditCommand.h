#pragma once
#include <memory>
#include <string>

#include "core/edit/Command.h"
#include "core/edit/VoxelDelta.h"

namespace delineate::core {

class LabelMap;

// One committed voxel edit (a brush stroke, a fill, an accepted AI proposal).
class VoxelEditCommand : public Command {
 public:
  VoxelEditCommand(std::shared_ptr<LabelMap> map, VoxelDelta delta, std::string text)
      : map_(std::move(map)), delta_(std::move(delta)), text_(std::move(text)) {}
  void apply() override;
  void revert() override;
  std::size_t byteSize() const override { return sizeof(*this) + delta_.byteSize() + text_.size(); }
  std::string text() const override { return text_; }
  const LabelMap* labelMap() const override { return map_.get(); }
  const VoxelDelta& delta() const { return delta_; }
  const std::shared_ptr<LabelMap>& map() const { return map_; }

 private:
  std::shared_ptr<LabelMap> map_;
  VoxelDelta delta_;
  std::string text_;
};

}  // namespace delineate::core
