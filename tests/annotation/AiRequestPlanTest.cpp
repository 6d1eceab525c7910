// What Run sends (annotation/ai/AiRequestPlan), decided from what the backend declares: clicks
// as point prompts only for a backend that keeps prompts on the server, six extreme points to
// the server's own DEXTR3D model, a segment refined only by a backend that takes an initial
// mask (else a note), and nothing sent while extreme points are missing.
#include "annotation/ai/AiRequestPlan.h"

#include <gtest/gtest.h>

using namespace delineate;
using namespace delineate::annotation;

namespace {

core::ImageGeometry planGrid() {
  core::ImageGeometry g;
  g.size = {20, 16, 10};
  return g;
}

core::ai::BackendCapabilities serverWithPromptUndo() {
  core::ai::BackendCapabilities c;
  c.promptKinds = {core::ai::PromptKind::Point, core::ai::PromptKind::Box};
  c.serverUndo = true;
  c.initialMasks = true;
  return c;
}

core::ai::ServerInfo withModels(std::vector<std::pair<std::string, std::string>> models) {
  core::ai::ServerInfo info;
  for (auto& [name, type] : models) {
    core::ai::ModelInfo m;
    m.name = name;
    m.type = type;
    info.models.push_back(m);
  }
  return info;
}

AiRequestInputs inputs(bool refine = false) {
  AiRequestInputs in;
  in.model = "deepgrow_3d";
  in.segmentName = "liver";
  in.segmentToRefine = refine;
  return in;
}

}  // namespace

TEST(AiRequestPlan, ClicksArePointPromptsOnlyWhereTheServerKeepsThem) {
  core::LabelMap map("m", planGrid());
  AiInteraction ai;
  ai.setTarget({&map, 1});
  ASSERT_TRUE(ai.addClick(planGrid(), {3, 4, 5}, ClickKind::Positive));
  ASSERT_TRUE(ai.addClick(planGrid(), {6, 4, 5}, ClickKind::Negative));

  const AiRequestPlan monai = planAiRequest(ai, inputs(), {}, nullptr);
  EXPECT_EQ(monai.next, AiRequestPlan::Next::Send);
  EXPECT_EQ(monai.request.model, "deepgrow_3d");
  EXPECT_EQ(monai.request.label, "liver");
  ASSERT_EQ(monai.request.foreground.size(), 1u);
  ASSERT_EQ(monai.request.background.size(), 1u);
  EXPECT_TRUE(monai.request.prompts.empty());

  const AiRequestPlan nn = planAiRequest(ai, inputs(), serverWithPromptUndo(), nullptr);
  ASSERT_EQ(nn.request.prompts.size(), 2u) << "in the order given";
  EXPECT_TRUE(nn.request.prompts[0].positive);
  EXPECT_FALSE(nn.request.prompts[1].positive);
  EXPECT_TRUE(nn.request.foreground.empty());
}

TEST(AiRequestPlan, ExtremePointsWaitForSixThenGoToTheServersDextrModel) {
  core::LabelMap map("m", planGrid());
  AiInteraction ai;
  ai.setTarget({&map, 1});
  const core::ai::ServerInfo info =
      withModels({{"deepgrow_3d", "deepgrow"}, {"my_dextr", "DEXTR3D"}, {"seg", "segmentation"}});
  for (int n = 1; n <= 6; ++n) {
    ASSERT_TRUE(ai.addClick(planGrid(), {double(n), 2, 3}, ClickKind::Extreme));
    const AiRequestPlan plan = planAiRequest(ai, inputs(true), serverWithPromptUndo(), &info);
    if (n < 6) {
      EXPECT_EQ(plan.next, AiRequestPlan::Next::WaitForExtremePoints);
      EXPECT_EQ(plan.note, std::to_string(n) + " of 6 extreme points");
      continue;
    }
    EXPECT_EQ(plan.next, AiRequestPlan::Next::Send);
    EXPECT_EQ(plan.request.model, "my_dextr") << "the type is matched whatever its case";
    EXPECT_EQ(plan.request.extremePoints.size(), 6u);
    EXPECT_FALSE(plan.refinesSegment) << "extreme points never refine";
  }
  // Without a DEXTR3D model of its own the chosen model (the built-in engine's) takes them.
  const core::ai::ServerInfo plain = withModels({{"deepgrow_3d", "deepgrow"}});
  EXPECT_EQ(planAiRequest(ai, inputs(), {}, &plain).request.model, "deepgrow_3d");
}

TEST(AiRequestPlan, ASegmentIsRefinedOnlyByABackendThatTakesOne) {
  core::LabelMap map("m", planGrid());
  AiInteraction ai;
  ai.setTarget({&map, 1});
  ASSERT_TRUE(ai.addClick(planGrid(), {3, 4, 5}, ClickKind::Negative));
  const AiRequestPlan refined = planAiRequest(ai, inputs(true), serverWithPromptUndo(), nullptr);
  EXPECT_TRUE(refined.refinesSegment);
  EXPECT_TRUE(refined.note.empty());
  const AiRequestPlan afresh = planAiRequest(ai, inputs(true), {}, nullptr);
  EXPECT_FALSE(afresh.refinesSegment);
  EXPECT_EQ(afresh.note, "starts afresh: it takes no segment to refine");
  EXPECT_FALSE(planAiRequest(ai, inputs(false), serverWithPromptUndo(), nullptr).refinesSegment)
      << "Refine off";
}
