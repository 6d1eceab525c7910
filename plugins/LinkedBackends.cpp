#include "plugins/LinkedBackends.h"

#include "plugins/builtin-engine/BuiltinEngineKind.h"
#include "plugins/clara-aiaa/ClaraAiaaKind.h"
#include "plugins/monai-label/MonaiLabelKind.h"
#include "plugins/nninteractive/NnInteractiveKind.h"

namespace delineate::plugins {

BackendRegistry linkedBackends() {
  BackendRegistry registry;
  registry.add(monaiLabelKind());
  registry.add(claraAiaaKind());
  registry.add(nnInteractiveKind());
  registry.add(builtinEngineKind());
  return registry;
}

}  // namespace delineate::plugins
