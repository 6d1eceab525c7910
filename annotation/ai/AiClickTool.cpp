#include "annotation/ai/AiClickTool.h"

namespace delineate::annotation {

bool AiClickTool::pointer(const PointerEvent& event) {
  if (event.button != PointerButton::Left) {
    return false;
  }
  if (event.action == PointerAction::Press) {
    const ClickKind kind = extreme_      ? ClickKind::Extreme
                           : event.shift ? ClickKind::Negative
                                         : ClickKind::Positive;
    if (handler_) {
      handler_(event.world, event.sliceNormal, kind);
    }
  }
  return true;  // moves and releases of the click are ours too (no cursor drag)
}

}  // namespace delineate::annotation
