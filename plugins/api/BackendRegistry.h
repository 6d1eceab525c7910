#pragma once
// The AI backend kinds one program knows, by id: the app fills it from the plugins it loaded
// (app/plugins/PluginHost), delineate-cli and delineate-server from the backends they link
// (plugins/LinkedBackends.h). Everything that makes a backend asks it, so a new protocol is one
// folder under plugins/ and one registration (docs/plugins.md). The first kind of an id wins.
// Qt-free.
#include <string>
#include <string_view>
#include <vector>

#include "plugins/api/BackendKind.h"

namespace delineate::plugins {

class BackendRegistry {
 public:
  // False (and nothing changes) when a kind of that id is already known.
  bool add(BackendKind kind);
  // nullptr when no kind has that id.
  const BackendKind* find(std::string_view kind) const;
  // In the order they were added.
  const std::vector<BackendKind>& kinds() const { return kinds_; }
  // A backend of `kind` for the settings. Throws core::Error(InvalidInput) naming the kind and
  // the known ones when there is no such kind, and whatever the kind's create() throws.
  std::shared_ptr<core::ai::AiBackend> create(std::string_view kind,
                                              const BackendSettings& settings) const;

 private:
  std::vector<BackendKind> kinds_;
};

}  // namespace delineate::plugins
