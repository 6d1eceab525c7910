#include "app/plugins/PluginReportText.h"

#include <QDir>
#include <algorithm>

namespace delineate::app {

std::string pluginReportText(const PluginHost& host) {
  std::string out = "Plugin folders, searched in this order:\n";
  for (const QString& dir : host.directories()) {
    out += "  " + dir.toStdString() + (QDir(dir).exists() ? "" : "  (missing)") + "\n";
  }
  if (host.reports().empty()) {
    out += "No plugin library found.\n";
    return out;
  }
  for (const PluginReport& r : host.reports()) {
    if (r.loaded) {
      out += "loaded   " + r.kind.toStdString() + " (" + r.name.toStdString() +
             "): " + r.file.toStdString() + "\n";
    } else {
      out += "refused  " + r.file.toStdString() + ": " + r.message.toStdString() + "\n";
    }
  }
  return out;
}

bool printPluginReport(const PluginHost& host, std::FILE* out) {
  const std::string text = pluginReportText(host);
  std::fputs(text.c_str(), out);
  return std::any_of(host.reports().begin(), host.reports().end(),
                     [](const PluginReport& r) { return r.loaded; });
}

}  // namespace delineate::app
