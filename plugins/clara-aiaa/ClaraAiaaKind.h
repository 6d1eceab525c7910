#pragma once
// The Clara AIAA v1 client (ClaraAiaaBackend) as a backend kind. AIAA v1 has no sign-in, so the
// settings' token has nowhere to go.
#include "plugins/api/BackendKind.h"

namespace delineate::plugins {

BackendKind claraAiaaKind();

}  // namespace delineate::plugins
