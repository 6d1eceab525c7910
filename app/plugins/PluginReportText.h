#pragma once
// `delineate --plugins`: the folders the host searched and, per library, whether it was loaded
// (kind, name, file) or refused and why. For IT staff checking an installation or a lab's plugin.
#include <cstdio>
#include <string>

#include "app/plugins/PluginHost.h"

namespace delineate::app {

// The report as text, one line per folder and per library.
std::string pluginReportText(const PluginHost& host);
// Writes pluginReportText to `out`; true when at least one plugin was loaded.
bool printPluginReport(const PluginHost& host, std::FILE* out);

}  // namespace delineate::app
