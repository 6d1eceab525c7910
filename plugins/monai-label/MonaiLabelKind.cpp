#include "plugins/monai-label/MonaiLabelKind.h"

#include "plugins/monai-label/MonaiLabelBackend.h"

namespace delineate::plugins {

BackendKind monaiLabelKind() {
  BackendKind k;
  k.kind = "monai-label";
  k.displayName = "MONAI Label";
  k.defaultModel = "";
  k.create = [](const BackendSettings& settings) -> std::shared_ptr<core::ai::AiBackend> {
    MonaiServerConfig config;
    config.url = settings.url;
    config.token = settings.token;
    config.tls.caFile = settings.caFile;
    config.connectTimeout = settings.connectTimeout;
    config.infoTimeout = settings.infoTimeout;
    config.inferTimeout = settings.inferTimeout;
    config.outbound = settings.outbound;
    config.useSessions = settings.useSessions;
    return std::make_shared<MonaiLabelBackend>(std::move(config));
  };
  return k;
}

}  // namespace delineate::plugins
