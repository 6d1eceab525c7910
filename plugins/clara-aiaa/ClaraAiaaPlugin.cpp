#include "plugins/clara-aiaa/ClaraAiaaPlugin.h"

namespace delineate::plugins {

std::shared_ptr<core::ai::AiBackend> ClaraAiaaPlugin::create(
    const BackendSettings& settings) const {
  return claraAiaaKind().create(settings);
}

}  // namespace delineate::plugins
