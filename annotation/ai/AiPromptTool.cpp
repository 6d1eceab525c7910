#include "annotation/ai/AiPromptTool.h"

#include "annotation/ai/PromptShapes.h"

namespace delineate::annotation {

std::string AiPromptTool::id() const {
  switch (shape_) {
    case PromptShape::Box:
      return "tool.aiBox";
    case PromptShape::Scribble:
      return "tool.aiScribble";
    case PromptShape::Lasso:
      return "tool.aiLasso";
  }
  return "tool.aiBox";
}

bool AiPromptTool::pointer(const PointerEvent& event) {
  switch (event.action) {
    case PointerAction::Press:
      if (event.button != PointerButton::Left) {
        return false;
      }
      drawing_ = true;
      positive_ = !event.shift;
      normal_ = event.sliceNormal;
      points_ = {event.world};
      if (shape_ == PromptShape::Box) {
        points_.push_back(event.world);
      }
      return true;
    case PointerAction::Move:
      if (!drawing_) {
        return false;
      }
      if (shape_ == PromptShape::Box) {
        points_[1] = event.world;
      } else {
        points_.push_back(event.world);
      }
      return true;
    case PointerAction::Release: {
      if (!drawing_) {
        return false;
      }
      drawing_ = false;
      const std::vector<core::Vec3> drawn = std::move(points_);
      points_.clear();
      if (handler_) {
        handler_(shape_, drawn, normal_, positive_);
      }
      return true;
    }
    case PointerAction::Cancel:
      cancel();
      return true;
  }
  return false;
}

std::vector<core::Vec3> AiPromptTool::drawnOutline(bool& closed) const {
  closed = shape_ != PromptShape::Scribble;
  if (!drawing_) {
    return {};
  }
  return shape_ == PromptShape::Box && points_.size() == 2
             ? rectangleOutline(points_[0], points_[1], normal_)
             : points_;
}

void AiPromptTool::cancel() {
  drawing_ = false;
  points_.clear();
}

}  // namespace delineate::annotation
