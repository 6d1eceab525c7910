#pragma once
// The MONAI Label client as a run-time plugin: a thin Qt shell making MonaiLabelBackend objects.
#include <QObject>

#include "plugins/api/AiBackendFactory.h"
#include "plugins/monai-label/MonaiLabelKind.h"

namespace delineate::plugins {

class MonaiLabelPlugin : public QObject, public AiBackendFactory {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID DELINEATE_AI_BACKEND_FACTORY_IID FILE "monai-label.json")
  Q_INTERFACES(delineate::plugins::AiBackendFactory)

 public:
  std::string kind() const override { return monaiLabelKind().kind; }
  std::string displayName() const override { return monaiLabelKind().displayName; }
  std::shared_ptr<core::ai::AiBackend> create(const BackendSettings& settings) const override;
};

}  // namespace delineate::plugins
