#include "plugins/clara-aiaa/ClaraAiaaKind.h"

#include "plugins/clara-aiaa/ClaraAiaaBackend.h"

namespace delineate::plugins {

BackendKind claraAiaaKind() {
  BackendKind k;
  k.kind = "clara-aiaa";
  k.displayName = "Clara AIAA";
  k.defaultModel = "";
  k.create = [](const BackendSettings& settings) -> std::shared_ptr<core::ai::AiBackend> {
    ClaraServerConfig config;
    config.url = settings.url;
    config.tls.caFile = settings.caFile;
    config.connectTimeout = settings.connectTimeout;
    config.infoTimeout = settings.infoTimeout;
    config.inferTimeout = settings.inferTimeout;
    config.outbound = settings.outbound;
    config.useSessions = settings.useSessions;
    return std::make_shared<ClaraAiaaBackend>(std::move(config));
  };
  return k;
}

}  // namespace delineate::plugins
