#include "app/gui/ai/AiPromptTools.h"

#include <QKeySequence>

#include "annotation/ai/PromptShapes.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/ToolController.h"

namespace delineate::app {

AiPromptTools::AiPromptTools(AiController* ai, EditSession* session, ToolController* tools,
                             QObject* parent)
    : QObject(parent), ai_(ai), session_(session), tools_(tools) {
  auto handler = [this](annotation::PromptShape shape, const std::vector<core::Vec3>& points,
                        const core::Vec3& normal,
                        bool positive) { drawn(shape, points, normal, positive); };
  box_ = std::make_unique<annotation::AiPromptTool>(annotation::PromptShape::Box, handler);
  scribble_ =
      std::make_unique<annotation::AiPromptTool>(annotation::PromptShape::Scribble, handler);
  lasso_ = std::make_unique<annotation::AiPromptTool>(annotation::PromptShape::Lasso, handler);
  tools->addTool(QStringLiteral("tool.aiBox"), tr("AI box"), QKeySequence(QStringLiteral("D")),
                 tr("Drag a box around the structure on any slice for the AI; Shift: a box it "
                    "is not in (D)"),
                 box_.get());
  tools->addTool(QStringLiteral("tool.aiScribble"), tr("AI scribble"),
                 QKeySequence(QStringLiteral("S")),
                 tr("Scribble inside the structure for the AI; Shift+scribble outside it (S)"),
                 scribble_.get());
  tools->addTool(QStringLiteral("tool.aiLasso"), tr("AI lasso"), QKeySequence(QStringLiteral("O")),
                 tr("Draw round the structure on a slice for the AI; Shift: a region it is not "
                    "in (O)"),
                 lasso_.get());
}

AiPromptTools::~AiPromptTools() {
  const QString id = tools_->toolId();
  if (id == QLatin1String("tool.aiBox") || id == QLatin1String("tool.aiScribble") ||
      id == QLatin1String("tool.aiLasso")) {
    tools_->setTool(QStringLiteral("tool.navigate"));  // the router must not keep our tools
  }
}

void AiPromptTools::drawn(annotation::PromptShape shape, const std::vector<core::Vec3>& points,
                          const core::Vec3& normal, bool positive) {
  const core::VolumePtr image = session_->image();
  if (!image || points.empty()) {
    return;
  }
  const core::ImageGeometry& grid = image->geometry();
  std::optional<core::ai::Prompt> prompt;
  annotation::AiInteraction::DrawnOutline outline;
  switch (shape) {
    case annotation::PromptShape::Box:
      prompt = annotation::boxPrompt(grid, points.front(), points.back(), normal, positive);
      outline = {annotation::rectangleOutline(points.front(), points.back(), normal), true};
      break;
    case annotation::PromptShape::Scribble:
      prompt = annotation::scribblePrompt(grid, points, normal, positive);
      outline = {points, false};
      break;
    case annotation::PromptShape::Lasso:
      prompt = annotation::lassoPrompt(grid, points, normal, positive);
      outline = {points, true};
      break;
  }
  if (!prompt) {
    Q_EMIT session_->statusMessage(tr("The prompt covers no voxel of the image"));
    return;
  }
  ai_->prompt(std::move(*prompt), std::move(outline));
}

}  // namespace delineate::app
