#include "echo/EchoBackend.h"

#include "core/Error.h"

namespace delineate::test {

core::ai::ServerInfo EchoBackend::info(core::ProgressSink&) {
  core::ai::ModelInfo model;
  model.name = kModel;
  model.type = "deepgrow";
  model.description = "A ball around the click";
  core::ai::ServerInfo info;
  info.name = "Echo";
  info.models.push_back(model);
  return info;
}

core::ai::InferResult EchoBackend::infer(const core::ai::InferRequest& request,
                                         core::ProgressSink& progress) {
  if (!request.image || request.foreground.empty()) {
    throw core::Error(core::ErrorKind::InvalidInput, displayName(), "needs an image and a click");
  }
  progress.throwIfCancelled();
  const core::ImageGeometry& g = request.image->geometry();
  const core::ai::VoxelIndex c = request.foreground.front();
  core::ai::InferResult result;
  core::Segment segment;
  segment.label = 1;
  segment.name = request.label;
  result.labels = std::make_shared<core::LabelMap>("echo", g, std::vector<core::Segment>{segment});
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        const auto dx = std::int64_t(i) - c[0], dy = std::int64_t(j) - c[1],
                   dz = std::int64_t(k) - c[2];
        if (dx * dx + dy * dy + dz * dz <= kRadius * kRadius) {
          result.labels->mutableData()[result.labels->index(i, j, k)] = 1;
        }
      }
    }
  }
  result.timings.serverSeconds = 0.0;
  return result;
}

}  // namespace delineate::test
