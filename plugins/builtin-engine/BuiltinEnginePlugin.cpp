#include "plugins/builtin-engine/BuiltinEnginePlugin.h"

namespace delineate::plugins {

std::shared_ptr<core::ai::AiBackend> BuiltinEnginePlugin::create(
    const BackendSettings& settings) const {
  return builtinEngineKind().create(settings);
}

}  // namespace delineate::plugins
