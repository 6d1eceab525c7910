#pragma once
// What editing tools work on: the label map being edited, the image it annotates, the undo stack,
// the active segment and the paint-over policy. Owned by the document; tools hold a reference.
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "core/edit/PaintPolicy.h"
#include "core/edit/UndoStack.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"
#include "core/model/VoxelBox.h"

namespace delineate::annotation {

struct EditContext {
  std::shared_ptr<core::LabelMap> labels;
  core::VolumePtr image;
  core::UndoStack* undo = nullptr;
  std::uint16_t activeLabel = 1;
  core::PaintPolicy policy;
  // Paint only where the image value lies in [first, second] (ITK-SNAP's "paint within range").
  std::optional<std::pair<double, double>> intensityRange;
  // Called with the box of voxels that changed (during a stroke and after undo/redo).
  std::function<void(const core::VoxelBox&)> changed;
};

}  // namespace delineate::annotation
