#include "plugins/monai-label/MonaiLabelPlugin.h"

#include "plugins/monai-label/MonaiLabelBackend.h"

namespace delineate::plugins {

std::shared_ptr<core::ai::AiBackend> MonaiLabelPlugin::create(
    const BackendSettings& settings) const {
  MonaiServerConfig config;
  config.url = settings.url;
  config.token = settings.token;
  config.tls.caFile = settings.caFile;
  config.connectTimeout = settings.connectTimeout;
  config.infoTimeout = settings.infoTimeout;
  config.inferTimeout = settings.inferTimeout;
  config.outbound = settings.outbound;
  return std::make_shared<MonaiLabelBackend>(std::move(config));
}

}  // namespace delineate::plugins
