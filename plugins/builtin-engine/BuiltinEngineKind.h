#pragma once
// The built-in engine (annotation/engine/LocalEngineBackend) as a backend kind. Local: the
// settings (URL, token, timeouts) do not apply.
#include "plugins/api/BackendKind.h"

namespace delineate::plugins {

BackendKind builtinEngineKind();

}  // namespace delineate::plugins
