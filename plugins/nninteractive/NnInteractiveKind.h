#pragma once
// The nnInteractive v2 client (NnInteractiveBackend) as a backend kind: the settings' token is the
// server's static API key (kept in the system keychain by the app). Its one model is the default.
#include "plugins/api/BackendKind.h"

namespace delineate::plugins {

BackendKind nnInteractiveKind();

}  // namespace delineate::plugins
