#pragma once
// The built-in engine as an AI backend: the default when no server is configured, offline, no
// model weights. Offers a point-guided model ("deepgrow" type: positive/negative clicks, 3D) and
// an extreme-point model, both PointGuidedSegmenter. Thread-safe (stateless apart from options).
#include "annotation/engine/PointGuidedSegmenter.h"
#include "core/ai/AiBackend.h"

namespace delineate::annotation {

class LocalEngineBackend : public core::ai::AiBackend {
 public:
  static constexpr const char* kClickModel = "local_deepgrow";
  static constexpr const char* kExtremeModel = "local_extreme_points";

  explicit LocalEngineBackend(SegmenterOptions options = {}) : segmenter_(options) {}

  std::string displayName() const override { return "Built-in engine"; }
  // The /info/ answer a MONAI Label server would give for these models.
  static nlohmann::json infoJson();
  core::ai::ServerInfo info(core::ProgressSink& progress) override;
  // The proposal on the request image's grid, label value 1 named after request.label.
  core::ai::InferResult infer(const core::ai::InferRequest& request,
                              core::ProgressSink& progress) override;

 private:
  PointGuidedSegmenter segmenter_;
};

}  // namespace delineate::annotation
