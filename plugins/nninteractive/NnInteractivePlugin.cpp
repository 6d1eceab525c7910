#include "plugins/nninteractive/NnInteractivePlugin.h"

#include "plugins/nninteractive/NnInteractiveBackend.h"

namespace delineate::plugins {

// The server's static API key is the settings' token (kept in the system keychain by the app).
std::shared_ptr<core::ai::AiBackend> NnInteractivePlugin::create(
    const BackendSettings& settings) const {
  NnInteractiveConfig config;
  config.url = settings.url;
  config.apiKey = settings.token;
  config.tls.caFile = settings.caFile;
  config.connectTimeout = settings.connectTimeout;
  config.setImageTimeout = settings.inferTimeout;
  config.outbound = settings.outbound;
  return std::make_shared<NnInteractiveBackend>(std::move(config));
}

}  // namespace delineate::plugins
