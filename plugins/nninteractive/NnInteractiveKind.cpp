#include "plugins/nninteractive/NnInteractiveKind.h"

#include "plugins/nninteractive/NnInteractiveBackend.h"

namespace delineate::plugins {

BackendKind nnInteractiveKind() {
  BackendKind k;
  k.kind = "nninteractive";
  k.displayName = "nnInteractive";
  k.defaultModel = NnInteractiveBackend::kModel;
  k.create = [](const BackendSettings& settings) -> std::shared_ptr<core::ai::AiBackend> {
    NnInteractiveConfig config;
    config.url = settings.url;
    config.apiKey = settings.token;
    config.tls.caFile = settings.caFile;
    config.connectTimeout = settings.connectTimeout;
    config.setImageTimeout = settings.inferTimeout;
    config.outbound = settings.outbound;
    return std::make_shared<NnInteractiveBackend>(std::move(config));
  };
  return k;
}

}  // namespace delineate::plugins
