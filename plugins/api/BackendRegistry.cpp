#include "plugins/api/BackendRegistry.h"

#include "core/Error.h"

namespace delineate::plugins {

bool BackendRegistry::add(BackendKind kind) {
  if (find(kind.kind) != nullptr || !kind.create) {
    return false;
  }
  kinds_.push_back(std::move(kind));
  return true;
}

const BackendKind* BackendRegistry::find(std::string_view kind) const {
  for (const BackendKind& k : kinds_) {
    if (k.kind == kind) {
      return &k;
    }
  }
  return nullptr;
}

std::shared_ptr<core::ai::AiBackend> BackendRegistry::create(
    std::string_view kind, const BackendSettings& settings) const {
  if (const BackendKind* k = find(kind)) {
    return k->create(settings);
  }
  std::string known;
  for (const BackendKind& k : kinds_) {
    known += (known.empty() ? "" : ", ") + k.kind;
  }
  throw core::Error(core::ErrorKind::InvalidInput, settings.url,
                    "no AI backend of kind '" + std::string(kind) +
                        "' (known: " + (known.empty() ? "none" : known) + ")");
}

}  // namespace delineate::plugins
