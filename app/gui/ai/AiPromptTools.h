#pragma once
// The AI prompt tools in the app: Box (D), Scribble (S) and Lasso (O) for the AI, drawn on any
// slice view (Shift: negative). What is drawn becomes a prompt on the image grid
// (annotation::PromptShapes) and goes to the AI controller, which refuses a prompt the backend
// cannot take, records it as one undo step and runs the model.
#include <QObject>
#include <memory>

#include "annotation/ai/AiPromptTool.h"

namespace delineate::app {

class AiController;
class EditSession;
class ToolController;

class AiPromptTools : public QObject {
  Q_OBJECT

 public:
  AiPromptTools(AiController* ai, EditSession* session, ToolController* tools, QObject* parent);
  ~AiPromptTools() override;

 private:
  void drawn(annotation::PromptShape shape, const std::vector<core::Vec3>& points,
             const core::Vec3& normal, bool positive);

  AiController* ai_;
  EditSession* session_;
  ToolController* tools_;
  std::unique_ptr<annotation::AiPromptTool> box_;
  std::unique_ptr<annotation::AiPromptTool> scribble_;
  std::unique_ptr<annotation::AiPromptTool> lasso_;
};

}  // namespace delineate::app
