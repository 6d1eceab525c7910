#pragma once
// Finds and loads the AI-backend plugins (docs/plugins.md). Each library in the search
// directories is checked from its metadata *before* any of its code runs: a plugin of another
// interface (IID), another API version or without a "kind" is refused with a message naming the
// file and the reason; one that then fails to load (a missing symbol) is reported with the
// loader's error. The first plugin of a kind wins, so $DELINEATE_PLUGIN_PATH can override the
// installed ones. Plugins are never unloaded: backends they made may live until the app exits.
// Qt Core only.
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

#include "app/plugins/PluginReport.h"
#include "plugins/api/AiBackendFactory.h"
#include "plugins/api/BackendRegistry.h"

namespace delineate::app {

class PluginHost {
 public:
  // Scans `directories` in this order (missing ones are skipped) and loads what passes.
  explicit PluginHost(const QStringList& directories);
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;

  // Where the app looks, in order: the entries of $DELINEATE_PLUGIN_PATH (separated like PATH),
  // <executableDir>/../lib/delineate/plugins (an installed package) and <executableDir>/plugins
  // (the build tree). An empty executableDir leaves out the last two.
  static QStringList searchPath(const QString& executableDir);
  // The running application's host: made on first use from searchPath() of the executable's
  // directory. Call it on the GUI thread first.
  static const PluginHost& application();

  const QStringList& directories() const { return directories_; }
  // One per library file considered, loaded or not, in search order.
  const std::vector<PluginReport>& reports() const { return reports_; }
  // The loaded factories, in search order.
  std::vector<const plugins::AiBackendFactory*> factories() const;
  // The loaded factory of `kind` ("monai-label", "builtin"); nullptr when there is none.
  const plugins::AiBackendFactory* factory(const QString& kind) const;
  // The report of the plugin that provides `kind`; nullptr when none was loaded.
  const PluginReport* reportFor(const QString& kind) const;
  // The loaded kinds as the registry every program makes its backends through (the CLI and
  // delineate-server fill theirs from the backends they link, plugins/LinkedBackends.h).
  const plugins::BackendRegistry& registry() const { return registry_; }

 private:
  void scan(const QString& directory);
  PluginReport consider(const QString& file);

  QStringList directories_;
  QStringList scanned_;  // canonical paths, so that a directory or file listed twice counts once
  std::vector<PluginReport> reports_;
  std::vector<std::pair<QString, const plugins::AiBackendFactory*>> factories_;  // kind, factory
  plugins::BackendRegistry registry_;
};

}  // namespace delineate::app
