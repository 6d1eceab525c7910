#pragma once
// The backend kinds linked into a program that loads no plugins (delineate-cli,
// delineate-server): MONAI Label, Clara AIAA, nnInteractive and the built-in engine, the same
// kinds, from the same code, that the app's plugins give it.
#include "plugins/api/BackendRegistry.h"

namespace delineate::plugins {

BackendRegistry linkedBackends();

}  // namespace delineate::plugins
