#include "plugins/builtin-engine/BuiltinEnginePlugin.h"

#include "annotation/engine/LocalEngineBackend.h"

namespace delineate::plugins {

std::shared_ptr<core::ai::AiBackend> BuiltinEnginePlugin::create(const BackendSettings&) const {
  return std::make_shared<annotation::LocalEngineBackend>();
}

}  // namespace delineate::plugins
