#pragma once
// The built-in engine (annotation::LocalEngineBackend) as a run-time plugin: classical
// point-guided segmentation with no server and no model weights.
#include <QObject>

#include "plugins/api/AiBackendFactory.h"
#include "plugins/builtin-engine/BuiltinEngineKind.h"

namespace delineate::plugins {

class BuiltinEnginePlugin : public QObject, public AiBackendFactory {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID DELINEATE_AI_BACKEND_FACTORY_IID FILE "builtin-engine.json")
  Q_INTERFACES(delineate::plugins::AiBackendFactory)

 public:
  std::string kind() const override { return builtinEngineKind().kind; }
  std::string displayName() const override { return builtinEngineKind().displayName; }
  std::shared_ptr<core::ai::AiBackend> create(const BackendSettings& settings) const override;
};

}  // namespace delineate::plugins
