#include "annotation/ai/AiRequestPlan.h"

namespace delineate::annotation {

AiRequestPlan planAiRequest(const AiInteraction& interaction, const AiRequestInputs& inputs,
                            const core::ai::BackendCapabilities& capabilities,
                            const core::ai::ServerInfo* info) {
  AiRequestPlan plan;
  const bool clicksAsPrompts =
      capabilities.serverUndo && capabilities.takes(core::ai::PromptKind::Point);
  plan.request =
      interaction.request(inputs.model, inputs.image, inputs.segmentName, clicksAsPrompts);
  const std::size_t extreme = interaction.extremePoints();
  if (extreme > 0 && extreme < 6) {
    plan.next = AiRequestPlan::Next::WaitForExtremePoints;
    plan.note = std::to_string(extreme) + " of 6 extreme points";
    return plan;
  }
  if (extreme == 6) {
    for (const core::ai::ModelInfo& m : info ? info->models : std::vector<core::ai::ModelInfo>{}) {
      if (core::ai::modelGroup(m.type) == core::ai::ModelGroup::ExtremePoints) {
        plan.request.model = m.name;
      }
    }
    return plan;
  }
  if (inputs.segmentToRefine) {
    if (capabilities.initialMasks) {
      plan.refinesSegment = true;
    } else {
      plan.note = "starts afresh: it takes no segment to refine";
    }
  }
  return plan;
}

}  // namespace delineate::annotation
