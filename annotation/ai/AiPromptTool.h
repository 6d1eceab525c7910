#pragma once
// The AI prompt tools: press-drag-release draws a box (two corners), a scribble (the stroke) or
// a lasso (a closed outline) on the slice of any view; Shift makes the prompt negative. The tool
// only reports what was drawn: the AI controller turns it into a prompt on the image grid
// (PromptShapes), records it and runs the model. While the button is down the view draws
// `points()`.
#include <functional>
#include <vector>

#include "annotation/tools/Tool.h"

namespace delineate::annotation {

enum class PromptShape { Box, Scribble, Lasso };

class AiPromptTool : public Tool {
 public:
  using DrawnHandler = std::function<void(PromptShape shape, const std::vector<core::Vec3>& points,
                                          const core::Vec3& normal, bool positive)>;

  AiPromptTool(PromptShape shape, DrawnHandler handler)
      : shape_(shape), handler_(std::move(handler)) {}

  std::string id() const override;
  bool pointer(const PointerEvent& event) override;
  void cancel() override;

  PromptShape shape() const { return shape_; }
  bool drawing() const { return drawing_; }
  bool positive() const { return positive_; }
  // A box: its two corners; a scribble or lasso: the points so far (LPS mm).
  const std::vector<core::Vec3>& points() const { return points_; }
  // A box: its rectangle in the view's plane; a lasso: closed; a scribble: the stroke.
  std::vector<core::Vec3> drawnOutline(bool& closed) const override;

 private:
  PromptShape shape_;
  DrawnHandler handler_;
  bool drawing_ = false;
  bool positive_ = true;
  core::Vec3 normal_{0, 0, 1};
  std::vector<core::Vec3> points_;
};

}  // namespace delineate::annotation
