#include "plugins/nninteractive/NnInteractivePlugin.h"

namespace delineate::plugins {

std::shared_ptr<core::ai::AiBackend> NnInteractivePlugin::create(
    const BackendSettings& settings) const {
  return nnInteractiveKind().create(settings);
}

}  // namespace delineate::plugins
