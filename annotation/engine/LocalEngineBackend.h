#pragma once
// The built-in engine as an AI backend: the default when no server is configured, offline, no
// model weights. Offers a point-guided model ("deepgrow" type: positive/negative clicks, 3D), an
// extreme-point model (both PointGuidedSegmenter) and an automatic demonstration model for the
// sample brain MR (AutoSegmenter; "segmentation" type, no clicks). Thread-safe (stateless apart
// from options).
#include <string>
#include <vector>

#include "annotation/engine/PointGuidedSegmenter.h"
#include "core/ai/AiBackend.h"

namespace delineate::annotation {

class LocalEngineBackend : public core::ai::AiBackend {
 public:
  static constexpr const char* kClickModel = "local_deepgrow";
  static constexpr const char* kExtremeModel = "local_extreme_points";
  static constexpr const char* kBrainMrModel = "local_brain_mr_demo";
  // The automatic model's labels, by value (1, 2, ...).
  static const std::vector<std::string>& brainMrLabels();

  explicit LocalEngineBackend(SegmenterOptions options = {}) : segmenter_(options) {}

  std::string displayName() const override { return "Built-in engine"; }
  // The /info/ answer a MONAI Label server would give for these models.
  static nlohmann::json infoJson();
  core::ai::ServerInfo info(core::ProgressSink& progress) override;
  // Points, boxes, scribbles and lassos (PromptSegmenter), with the click model.
  core::ai::BackendCapabilities capabilities() const override;
  // The proposal on the request image's grid, label value 1 named after request.label.
  core::ai::InferResult infer(const core::ai::InferRequest& request,
                              core::ProgressSink& progress) override;

 private:
  core::ai::InferResult inferBrainMr(const core::ai::InferRequest& request,
                                     core::ProgressSink& progress) const;

  PointGuidedSegmenter segmenter_;
};

}  // namespace delineate::annotation
