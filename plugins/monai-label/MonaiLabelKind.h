#pragma once
// The MONAI Label client (MonaiLabelBackend) as a backend kind; the settings' token is a fixed
// access token (sign-in goes through the backend).
#include "plugins/api/BackendKind.h"

namespace delineate::plugins {

BackendKind monaiLabelKind();

}  // namespace delineate::plugins
