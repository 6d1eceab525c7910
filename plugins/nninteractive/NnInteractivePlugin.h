#pragma once
// The nnInteractive v2 client as a run-time plugin: a thin Qt shell making NnInteractiveBackend
// objects. The whole protocol lives in NnInteractiveBackend (Qt-free).
#include <QObject>

#include "plugins/api/AiBackendFactory.h"
#include "plugins/nninteractive/NnInteractiveKind.h"

namespace delineate::plugins {

class NnInteractivePlugin : public QObject, public AiBackendFactory {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID DELINEATE_AI_BACKEND_FACTORY_IID FILE "nninteractive.json")
  Q_INTERFACES(delineate::plugins::AiBackendFactory)

 public:
  std::string kind() const override { return nnInteractiveKind().kind; }
  std::string displayName() const override { return nnInteractiveKind().displayName; }
  std::shared_ptr<core::ai::AiBackend> create(const BackendSettings& settings) const override;
};

}  // namespace delineate::plugins
