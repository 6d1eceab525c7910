// The plugin host against real library files in a test-only plugin folder (found through
// $DELINEATE_PLUGIN_PATH, as a user's own plugins would be): the example "echo" plugin is loaded
// and its backend segments an image; plugins of another API version or interface, without a kind,
// with an undefined symbol, and a library that is no plugin are refused with the file and the
// reason; the app's own plugins load from the build tree and make working backends.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <filesystem>

#include "TempDir.h"
#include "app/plugins/PluginHost.h"
#include "app/plugins/PluginReportText.h"
#include "core/Error.h"
#include "core/jobs/ProgressSink.h"

using namespace delineate;

namespace {

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const QByteArray& value)
      : name_(name), old_(qgetenv(name)), had_(qEnvironmentVariableIsSet(name)) {
    qputenv(name, value);
  }
  ~ScopedEnv() {
    if (had_) {
      qputenv(name_, old_);
    } else {
      qunsetenv(name_);
    }
  }

 private:
  const char* name_;
  QByteArray old_;
  bool had_;
};

// The host a user gets with the test plugin folder in DELINEATE_PLUGIN_PATH.
app::PluginHost& testHost() {
  static ScopedEnv env("DELINEATE_PLUGIN_PATH", DELINEATE_TEST_PLUGIN_DIR);
  static app::PluginHost host(app::PluginHost::searchPath({}));
  return host;
}

// The report about the library whose file name contains `part`.
const app::PluginReport* reportAbout(const app::PluginHost& host, const QString& part) {
  for (const app::PluginReport& r : host.reports()) {
    if (QFileInfo(r.file).fileName().contains(part)) {
      return &r;
    }
  }
  return nullptr;
}

core::VolumePtr blankImage() {
  core::ImageGeometry g;
  g.size = {20, 20, 20};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  return std::make_shared<const core::Volume>(g, voxels, core::VolumeInfo{});
}

std::size_t labelled(const core::LabelMap& labels) {
  return static_cast<std::size_t>(std::count_if(labels.data(), labels.data() + labels.voxelCount(),
                                                [](std::uint16_t v) { return v != 0; }));
}

}  // namespace

TEST(PluginHost, SearchesTheVariableThenTheInstalledFolderThenTheBuildTreeFolder) {
  const ScopedEnv env("DELINEATE_PLUGIN_PATH", "/home/me/plugins::/srv/shared/plugins/");
  EXPECT_EQ(app::PluginHost::searchPath(QStringLiteral("/opt/delineate/bin")),
            QStringList({QStringLiteral("/home/me/plugins"), QStringLiteral("/srv/shared/plugins"),
                         QStringLiteral("/opt/delineate/lib/delineate/plugins"),
                         QStringLiteral("/opt/delineate/bin/plugins")}));
}

TEST(PluginHost, LoadsTheExamplePluginAndRunsAnInferenceThroughIt) {
  const plugins::AiBackendFactory* echo = testHost().factory(QStringLiteral("echo"));
  ASSERT_NE(echo, nullptr);
  EXPECT_EQ(echo->displayName(), "Echo");
  const app::PluginReport* report = testHost().reportFor(QStringLiteral("echo"));
  ASSERT_NE(report, nullptr);
  EXPECT_TRUE(report->loaded);
  EXPECT_EQ(report->name, QStringLiteral("Echo"));
  EXPECT_TRUE(
      report->file.startsWith(QDir(QStringLiteral(DELINEATE_TEST_PLUGIN_DIR)).absolutePath()))
      << report->file.toStdString();

  plugins::BackendSettings settings;
  settings.url = "http://echo.test:1234";
  const std::shared_ptr<core::ai::AiBackend> backend = echo->create(settings);
  ASSERT_NE(backend, nullptr);
  EXPECT_EQ(backend->displayName(), "Echo at http://echo.test:1234") << "the settings reach it";
  core::NullProgress progress;
  const core::ai::ServerInfo info = backend->info(progress);
  ASSERT_EQ(info.models.size(), 1u);
  EXPECT_EQ(info.models[0].name, "echo_sphere");

  core::ai::InferRequest request;
  request.model = "echo_sphere";
  request.image = blankImage();
  request.label = "Lesion";
  request.foreground = {{10, 10, 10}};
  const core::ai::InferResult result = backend->infer(request, progress);
  ASSERT_NE(result.labels, nullptr);
  EXPECT_EQ(labelled(*result.labels), 123u) << "a ball of radius 3 voxels";
  EXPECT_EQ(result.labels->at(10, 10, 13), 1);
  EXPECT_EQ(result.labels->at(10, 10, 14), 0);
  ASSERT_EQ(result.labels->segments().size(), 1u);
  EXPECT_EQ(result.labels->segments()[0].name, "Lesion");
}

TEST(PluginHost, AnErrorInAPluginsBackendReachesTheAppAsACoreError) {
  const plugins::AiBackendFactory* echo = testHost().factory(QStringLiteral("echo"));
  ASSERT_NE(echo, nullptr);
  const auto backend = echo->create({});
  core::ai::InferRequest noClick;
  noClick.image = blankImage();
  core::NullProgress progress;
  try {
    backend->infer(noClick, progress);
    ADD_FAILURE() << "a request without a click must fail";
  } catch (const core::Error& e) {
    EXPECT_EQ(e.kind(), core::ErrorKind::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("needs an image and a click"), std::string::npos);
  }
}

TEST(PluginHost, RefusesAPluginOfAnotherApiVersionNamingTheFile) {
  const app::PluginReport* r = reportAbout(testHost(), QStringLiteral("wrong_version"));
  ASSERT_NE(r, nullptr) << "the library is considered";
  EXPECT_FALSE(r->loaded);
  EXPECT_TRUE(r->message.contains(r->file)) << r->message.toStdString();
  EXPECT_TRUE(r->message.contains(QStringLiteral("API version 9"))) << r->message.toStdString();
  EXPECT_TRUE(r->message.contains(QStringLiteral("API version 8"))) << r->message.toStdString();
  EXPECT_EQ(testHost().factory(QStringLiteral("wrong-version")), nullptr);
}

TEST(PluginHost, RefusesAPluginOfAnotherInterface) {
  const app::PluginReport* r = reportAbout(testHost(), QStringLiteral("wrong_iid"));
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->loaded);
  EXPECT_TRUE(r->message.contains(r->file)) << r->message.toStdString();
  EXPECT_TRUE(r->message.contains(QStringLiteral("org.example.SomethingElse/1.0")))
      << r->message.toStdString();
  EXPECT_EQ(testHost().factory(QStringLiteral("wrong-iid")), nullptr);
}

TEST(PluginHost, RefusesAPluginWhoseMetadataHasNoKind) {
  const app::PluginReport* r = reportAbout(testHost(), QStringLiteral("no_kind"));
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->loaded);
  EXPECT_TRUE(r->message.contains(r->file)) << r->message.toStdString();
  EXPECT_TRUE(r->message.contains(QStringLiteral("no \"kind\""))) << r->message.toStdString();
}

TEST(PluginHost, ReportsAPluginThatFailsToLoadWithTheLoadersError) {
  const app::PluginReport* r = reportAbout(testHost(), QStringLiteral("missing_symbol"));
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->loaded);
  EXPECT_TRUE(r->message.contains(r->file)) << r->message.toStdString();
  EXPECT_TRUE(r->message.contains(QStringLiteral("failed to load"))) << r->message.toStdString();
  EXPECT_TRUE(r->message.contains(QStringLiteral("delineateTestMissingSymbol")))
      << r->message.toStdString();
  EXPECT_EQ(testHost().factory(QStringLiteral("missing-symbol")), nullptr);
}

TEST(PluginHost, ReportsASharedLibraryThatIsNotAPlugin) {
  const app::PluginReport* r = reportAbout(testHost(), QStringLiteral("not_a_plugin"));
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->loaded);
  EXPECT_TRUE(r->message.contains(r->file)) << r->message.toStdString();
  EXPECT_TRUE(r->message.contains(QStringLiteral("not a Qt plugin"))) << r->message.toStdString();
}

TEST(PluginHost, FindsFactoriesByKindAndListsOnlyTheLoadedOnes) {
  const auto factories = testHost().factories();
  ASSERT_EQ(factories.size(), 1u) << "only the echo plugin passes";
  EXPECT_EQ(factories[0]->kind(), "echo");
  EXPECT_EQ(testHost().factory(QStringLiteral("echo")), factories[0]);
  EXPECT_EQ(testHost().factory(QStringLiteral("monai-label")), nullptr);
  EXPECT_EQ(testHost().reports().size(), 6u) << "every library in the folder is reported";
}

TEST(PluginHost, TheFirstPluginOfAKindWinsSoAUserFolderOverridesTheInstalledOne) {
  const app::PluginReport* original = reportAbout(testHost(), QStringLiteral("echo"));
  ASSERT_NE(original, nullptr);
  const test::TempDir user;
  const QString copy = QString::fromStdString((user / "libmy_echo.so").string());
  ASSERT_TRUE(QFile::copy(original->file, copy));

  const app::PluginHost host(
      {QString::fromStdString(user.path().string()), QStringLiteral(DELINEATE_TEST_PLUGIN_DIR)});
  const app::PluginReport* mine = host.reportFor(QStringLiteral("echo"));
  ASSERT_NE(mine, nullptr);
  EXPECT_TRUE(mine->file.endsWith(QStringLiteral("libmy_echo.so"))) << mine->file.toStdString();
  const app::PluginReport* shadowed = reportAbout(host, QFileInfo(original->file).fileName());
  ASSERT_NE(shadowed, nullptr);
  EXPECT_FALSE(shadowed->loaded);
  EXPECT_TRUE(shadowed->message.contains(QStringLiteral("already provided by ") + mine->file))
      << shadowed->message.toStdString();
}

TEST(PluginHost, TheAppsOwnPluginsLoadFromTheBuildTreeAndMakeTheirBackends) {
  const app::PluginHost host({QStringLiteral(DELINEATE_APP_PLUGIN_DIR)});
  for (const app::PluginReport& r : host.reports()) {
    EXPECT_TRUE(r.loaded) << r.message.toStdString();
  }
  const plugins::AiBackendFactory* builtin = host.factory(QStringLiteral("builtin"));
  const plugins::AiBackendFactory* monai = host.factory(QStringLiteral("monai-label"));
  const plugins::AiBackendFactory* clara = host.factory(QStringLiteral("clara-aiaa"));
  ASSERT_NE(builtin, nullptr);
  ASSERT_NE(monai, nullptr);
  ASSERT_NE(clara, nullptr);

  plugins::BackendSettings server;
  server.url = "http://127.0.0.1:9";
  EXPECT_NE(monai->create(server)->displayName().find("127.0.0.1:9"), std::string::npos);
  EXPECT_NE(clara->create(server)->displayName().find("127.0.0.1:9"), std::string::npos);

  // The built-in engine works through its plugin: a click on a bright ball gives the ball.
  const auto engine = builtin->create({});
  core::NullProgress progress;
  const core::ai::ServerInfo info = engine->info(progress);
  ASSERT_NE(info.findModel("local_deepgrow"), nullptr);
  core::ImageGeometry g;
  g.size = {30, 30, 30};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  for (std::size_t k = 0, n = 0; k < 30; ++k) {
    for (std::size_t j = 0; j < 30; ++j) {
      for (std::size_t i = 0; i < 30; ++i, ++n) {
        const double dx = double(i) - 15, dy = double(j) - 15, dz = double(k) - 15;
        voxels->as<std::int16_t>()[n] = dx * dx + dy * dy + dz * dz <= 36 ? 300 : 20;
      }
    }
  }
  core::ai::InferRequest request;
  request.model = "local_deepgrow";
  request.image = std::make_shared<const core::Volume>(g, voxels, core::VolumeInfo{});
  request.label = "Ball";
  request.foreground = {{15, 15, 15}};
  const std::size_t n = labelled(*engine->infer(request, progress).labels);
  EXPECT_GT(n, 700u);  // a radius-6 ball has 925 voxels
  EXPECT_LT(n, 1100u);
}

TEST(PluginHost, TheReportTextListsTheFoldersTheLoadedAndTheRefusedWithTheirReasons) {
  const std::string text = app::pluginReportText(testHost());
  EXPECT_NE(text.find(DELINEATE_TEST_PLUGIN_DIR), std::string::npos) << text;
  EXPECT_NE(text.find("loaded   echo (Echo)"), std::string::npos) << text;
  const app::PluginReport* refused = reportAbout(testHost(), QStringLiteral("wrong_version"));
  ASSERT_NE(refused, nullptr);
  EXPECT_NE(text.find("refused  " + refused->file.toStdString() + ": "), std::string::npos) << text;
  EXPECT_NE(text.find("API version 8"), std::string::npos) << text;

  const app::PluginHost empty(QStringList{QStringLiteral("/nonexistent/plugins")});
  const std::string none = app::pluginReportText(empty);
  EXPECT_NE(none.find("/nonexistent/plugins  (missing)"), std::string::npos) << none;
  EXPECT_NE(none.find("No plugin library found."), std::string::npos) << none;
}
