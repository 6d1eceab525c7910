#include "plugins/monai-label/MonaiLabelPlugin.h"

namespace delineate::plugins {

std::shared_ptr<core::ai::AiBackend> MonaiLabelPlugin::create(
    const BackendSettings& settings) const {
  return monaiLabelKind().create(settings);
}

}  // namespace delineate::plugins
