// The backend registry every program makes its AI backends through (plugins/api/
// BackendRegistry.h): the app fills it from the plugins it loads, delineate-cli and
// delineate-server from the backends they link (plugins/LinkedBackends.h). Both must know the
// same kinds under the same names, or a server the app talks to would be one the CLI cannot.
#include "plugins/api/BackendRegistry.h"

#include <gtest/gtest.h>

#include <QStringList>
#include <string>

#include "app/plugins/PluginHost.h"
#include "core/Error.h"
#include "plugins/LinkedBackends.h"

using namespace delineate;

namespace {

plugins::BackendKind kindNamed(const std::string& id, const std::string& name) {
  plugins::BackendKind k;
  k.kind = id;
  k.displayName = name;
  k.create = [](const plugins::BackendSettings&) {
    return plugins::linkedBackends().create("builtin", {});
  };
  return k;
}

}  // namespace

TEST(BackendRegistry, TheFirstKindOfAnIdWinsAndAnUnknownKindIsNamed) {
  plugins::BackendRegistry registry;
  EXPECT_TRUE(registry.add(kindNamed("one", "First")));
  EXPECT_FALSE(registry.add(kindNamed("one", "Second"))) << "the first of a kind wins";
  EXPECT_TRUE(registry.add(kindNamed("two", "Other")));
  ASSERT_NE(registry.find("one"), nullptr);
  EXPECT_EQ(registry.find("one")->displayName, "First");
  EXPECT_EQ(registry.find("three"), nullptr);
  ASSERT_EQ(registry.kinds().size(), 2u);
  EXPECT_NE(registry.create("two", {}), nullptr);
  try {
    plugins::BackendSettings settings;
    settings.url = "http://127.0.0.1:1";
    registry.create("three", settings);
    FAIL() << "an unknown kind must throw";
  } catch (const core::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), core::ErrorKind::InvalidInput);
    EXPECT_NE(what.find("'three'"), std::string::npos) << what;
    EXPECT_NE(what.find("one, two"), std::string::npos) << "the known kinds: " << what;
  }
}

TEST(BackendRegistry, TheCliAndServerKnowTheKindsTheAppsPluginsGive) {
  const plugins::BackendRegistry linked = plugins::linkedBackends();
  const app::PluginHost host(QStringList{QStringLiteral(DELINEATE_APP_PLUGIN_DIR)});
  ASSERT_EQ(host.registry().kinds().size(), linked.kinds().size());
  for (const plugins::BackendKind& k : linked.kinds()) {
    const plugins::BackendKind* loaded = host.registry().find(k.kind);
    ASSERT_NE(loaded, nullptr) << k.kind << " is linked but no plugin gives it";
    EXPECT_EQ(loaded->displayName, k.displayName);
  }
  for (const char* kind : {"monai-label", "clara-aiaa", "nninteractive", "builtin"}) {
    EXPECT_NE(linked.find(kind), nullptr) << kind;
  }
  // nnInteractive has one model, asked when the user names none; the others need a name.
  EXPECT_EQ(linked.find("nninteractive")->defaultModel, "nninteractive");
  EXPECT_TRUE(linked.find("monai-label")->defaultModel.empty());
  // The same backend either way: the built-in engine through the plugin and linked.
  EXPECT_EQ(host.registry().create("builtin", {})->displayName(),
            linked.create("builtin", {})->displayName());
  plugins::BackendSettings settings;
  settings.url = "http://127.0.0.1:8000";
  EXPECT_EQ(host.registry().create("monai-label", settings)->displayName(),
            linked.create("monai-label", settings)->displayName());
}
