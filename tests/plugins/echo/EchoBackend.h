#pragma once
// The example backend of docs/plugins.md, for the plugin-host tests: one click model whose
// proposal is a ball of kRadius voxels around the first foreground click. Qt-free, like a real
// backend.
#include <string>

#include "core/ai/AiBackend.h"

namespace delineate::test {

class EchoBackend : public core::ai::AiBackend {
 public:
  static constexpr const char* kModel = "echo_sphere";
  static constexpr int kRadius = 3;

  explicit EchoBackend(std::string url) : url_(std::move(url)) {}

  std::string displayName() const override { return "Echo at " + url_; }
  core::ai::ServerInfo info(core::ProgressSink& progress) override;
  core::ai::InferResult infer(const core::ai::InferRequest& request,
                              core::ProgressSink& progress) override;

 private:
  std::string url_;
};

}  // namespace delineate::test
