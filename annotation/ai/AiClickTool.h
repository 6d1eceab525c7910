#pragma once
// The click tool of AI-assisted segmentation: a click is a positive point, Shift+click a negative
// one; in extreme-point mode each click is one of the six extreme points. The tool only reports
// the click; the AI controller records it (AiInteraction), shows the marker and runs the model.
#include <functional>

#include "annotation/ai/AiInteraction.h"
#include "annotation/tools/Tool.h"

namespace delineate::annotation {

class AiClickTool : public Tool {
 public:
  // `normal`: the slice plane's normal in the view clicked (Freeze works on that slice).
  using ClickHandler =
      std::function<void(const core::Vec3& world, const core::Vec3& normal, ClickKind kind)>;

  AiClickTool(bool extremePoints, ClickHandler handler)
      : extreme_(extremePoints), handler_(std::move(handler)) {}

  std::string id() const override { return extreme_ ? "tool.aiExtreme" : "tool.aiClick"; }
  bool pointer(const PointerEvent& event) override;

 private:
  bool extreme_;
  ClickHandler handler_;
};

}  // namespace delineate::annotation
