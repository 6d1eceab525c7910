#pragma once
// One kind of AI backend as the app, delineate-cli and delineate-server know it: its id, its name
// for people, the model to ask when the user names none, and how to make one from the settings.
// Each backend folder under plugins/ gives its kind from its Qt-free library (for example
// plugins/monai-label/MonaiLabelKind.h); the app gets it through the folder's Qt plugin shell,
// the CLI and the server link it (plugins/LinkedBackends.h). Qt-free.
#include <functional>
#include <memory>
#include <string>

#include "core/ai/AiBackend.h"
#include "plugins/api/BackendSettings.h"

namespace delineate::plugins {

struct BackendKind {
  std::string kind;          // "monai-label", "clara-aiaa", "nninteractive", "builtin"
  std::string displayName;   // "MONAI Label", "Built-in engine"
  std::string defaultModel;  // asked when the user names no model; empty: a model must be named
  // A new backend for the settings; throws core::Error when they cannot work (a malformed URL).
  // Never returns null.
  std::function<std::shared_ptr<core::ai::AiBackend>(const BackendSettings&)> create;
};

}  // namespace delineate::plugins
