#pragma once
// The Clara AIAA v1 client as a run-time plugin: a thin Qt shell making ClaraAiaaBackend objects.
#include <QObject>

#include "plugins/api/AiBackendFactory.h"
#include "plugins/clara-aiaa/ClaraAiaaKind.h"

namespace delineate::plugins {

class ClaraAiaaPlugin : public QObject, public AiBackendFactory {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID DELINEATE_AI_BACKEND_FACTORY_IID FILE "clara-aiaa.json")
  Q_INTERFACES(delineate::plugins::AiBackendFactory)

 public:
  std::string kind() const override { return claraAiaaKind().kind; }
  std::string displayName() const override { return claraAiaaKind().displayName; }
  std::shared_ptr<core::ai::AiBackend> create(const BackendSettings& settings) const override;
};

}  // namespace delineate::plugins
