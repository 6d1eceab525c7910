#pragma once
// The interface an AI-backend plugin implements (docs/plugins.md). A plugin is a Qt plugin (one
// QObject that also derives from AiBackendFactory) whose JSON metadata names its kind and the API
// version it was built for; the app's PluginHost reads that metadata before loading the library
// and refuses a plugin of another interface or version. The factory is QObject-free so that the
// interface says nothing about Qt beyond the id below; the backends it makes are Qt-free.
//
// Compatibility: a plugin and the app exchange core::ai::AiBackend objects, so both must be built
// from the same core headers. Any incompatible change to this header, BackendSettings or
// core::ai::AiBackend raises kAiBackendApiVersion and the IID's version together.
#include <QObject>
#include <memory>
#include <string>

#include "core/ai/AiBackend.h"
#include "plugins/api/BackendSettings.h"

namespace delineate::plugins {

// The "apiVersion" a plugin's metadata must carry to be loaded by this build.
inline constexpr int kAiBackendApiVersion = 8;

class AiBackendFactory {
 public:
  virtual ~AiBackendFactory() = default;

  // The id the app asks for ("monai-label", "clara-aiaa", "builtin"); equal to the metadata's
  // "kind".
  virtual std::string kind() const = 0;
  // For menus and the backend list: "MONAI Label", "Built-in engine".
  virtual std::string displayName() const = 0;
  // A new backend for `settings`; throws core::Error when the settings cannot work (a malformed
  // URL). Never returns null.
  virtual std::shared_ptr<core::ai::AiBackend> create(const BackendSettings& settings) const = 0;
};

}  // namespace delineate::plugins

// The version after the slash is the API version: a plugin built against another one has another
// IID and is refused before its code runs.
#define DELINEATE_AI_BACKEND_FACTORY_IID "org.delineate.AiBackendFactory/8.0"
Q_DECLARE_INTERFACE(delineate::plugins::AiBackendFactory, DELINEATE_AI_BACKEND_FACTORY_IID)
