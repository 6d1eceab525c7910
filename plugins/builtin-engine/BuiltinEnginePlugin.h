#pragma once
// The built-in engine (annotation::LocalEngineBackend) as a run-time plugin: classical
// point-guided segmentation with no server and no model weights.
#include <QObject>

#include "plugins/api/AiBackendFactory.h"

namespace delineate::plugins {

class BuiltinEnginePlugin : public QObject, public AiBackendFactory {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID DELINEATE_AI_BACKEND_FACTORY_IID FILE "builtin-engine.json")
  Q_INTERFACES(delineate::plugins::AiBackendFactory)

 public:
  std::string kind() const override { return "builtin"; }
  std::string displayName() const override { return "Built-in engine"; }
  // Local: the settings (URL, token, timeouts) do not apply.
  std::shared_ptr<core::ai::AiBackend> create(const BackendSettings& settings) const override;
};

}  // namespace delineate::plugins
