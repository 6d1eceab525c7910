#include "plugins/clara-aiaa/ClaraAiaaPlugin.h"

#include "plugins/clara-aiaa/ClaraAiaaBackend.h"

namespace delineate::plugins {

// AIAA v1 has no sign-in, so settings.token has nowhere to go.
std::shared_ptr<core::ai::AiBackend> ClaraAiaaPlugin::create(
    const BackendSettings& settings) const {
  ClaraServerConfig config;
  config.url = settings.url;
  config.tls.caFile = settings.caFile;
  config.connectTimeout = settings.connectTimeout;
  config.infoTimeout = settings.infoTimeout;
  config.inferTimeout = settings.inferTimeout;
  config.outbound = settings.outbound;
  return std::make_shared<ClaraAiaaBackend>(std::move(config));
}

}  // namespace delineate::plugins
