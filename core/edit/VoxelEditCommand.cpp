#include "core/edit/VoxelEditCommand.h"

#include "core/model/LabelMap.h"

namespace delineate::core {

void VoxelEditCommand::apply() {
  delta_.apply(*map_, true);
}
void VoxelEditCommand::revert() {
  delta_.apply(*map_, false);
}

}  // namespace delineate::core
