#include "plugins/builtin-engine/BuiltinEngineKind.h"

#include "annotation/engine/LocalEngineBackend.h"

namespace delineate::plugins {

BackendKind builtinEngineKind() {
  BackendKind k;
  k.kind = "builtin";
  k.displayName = "Built-in engine";
  k.defaultModel = annotation::LocalEngineBackend::kClickModel;
  k.create = [](const BackendSettings&) -> std::shared_ptr<core::ai::AiBackend> {
    return std::make_shared<annotation::LocalEngineBackend>();
  };
  return k;
}

}  // namespace delineate::plugins
