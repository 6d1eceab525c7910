// The AI panel's backends come from the loaded plugins: the built-in engine is made by its plugin
// and runs from the plugin's library (not the copy linked into the app), servers of each kind are
// made by theirs, and a click on the bead still gives a proposal through the plugin. Without
// the built-in engine's plugin (a damaged install) the real app still offers the engine, from
// the copy linked into it, and says why.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <filesystem>
#include <typeinfo>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "TempDir.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/AiDock.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/plugins/PluginHost.h"
#include "core/io/VolumeFileIO.h"
#include "viewers/ViewLayout.h"

using namespace delineate;
using test::SyntheticCt;

namespace {

// The library whose code made `object` (where its type's RTTI lives).
QString libraryOf(const core::ai::AiBackend& object) {
  Dl_info where{};
  if (dladdr(&typeid(object), &where) == 0 || where.dli_fname == nullptr) {
    return {};
  }
  return QFileInfo(QString::fromLocal8Bit(where.dli_fname)).canonicalFilePath();
}

class AiPluginGuiTest : public test::EditingWindowTest {};

}  // namespace

TEST_F(AiPluginGuiTest, TheBackendListComesFromThePluginsAndTheEngineRunsInsideItsPlugin) {
  test::ForgetServers forget;
  const app::PluginHost& host = app::PluginHost::application();
  const plugins::AiBackendFactory* builtin = host.factory(QStringLiteral("builtin"));
  ASSERT_NE(builtin, nullptr) << "searched " << host.directories().join(", ").toStdString();
  app::AiController* ai = editing()->ai();
  QComboBox* list = editing()->aiDock()->backendCombo();

  const app::AiController::Backend& engine = ai->backends()[0];
  EXPECT_EQ(engine.kind, QStringLiteral("builtin"));
  EXPECT_TRUE(engine.note.isEmpty()) << engine.note.toStdString();
  EXPECT_EQ(list->itemText(0), QString::fromStdString(builtin->displayName()));
  EXPECT_EQ(libraryOf(*engine.backend), host.reportFor(QStringLiteral("builtin"))->file)
      << "the engine's code is the plugin's";

  // The "+ server" choices are the server plugins loaded, by their names.
  EXPECT_EQ(app::AiController::serverKinds(),
            (QStringList{QStringLiteral("monai-label"), QStringLiteral("clara-aiaa"),
                         QStringLiteral("nninteractive")}))
      << app::AiController::serverKinds().join(QStringLiteral(",")).toStdString();
  EXPECT_EQ(app::AiController::serverKindName(QStringLiteral("clara-aiaa")),
            QStringLiteral("Clara AIAA"));
  EXPECT_EQ(app::AiController::serverKindName(QStringLiteral("nninteractive")),
            QStringLiteral("nnInteractive"));

  const QString url = QStringLiteral("http://127.0.0.1:9");
  const int monai = ai->addServer(url, QStringLiteral("monai-label"));
  const int clara = ai->addServer(url, QStringLiteral("clara-aiaa"));
  for (const auto& [index, kind] :
       {std::pair(monai, "monai-label"), std::pair(clara, "clara-aiaa")}) {
    const app::AiController::Backend& server = ai->backends()[std::size_t(index)];
    EXPECT_EQ(server.kind, QLatin1String(kind));
    ASSERT_NE(server.backend, nullptr);
    EXPECT_EQ(libraryOf(*server.backend), host.reportFor(QLatin1String(kind))->file);
  }
  ASSERT_EQ(list->count(), 3);
  EXPECT_EQ(list->itemText(monai), QStringLiteral("MONAI Label at http://127.0.0.1:9"));
  EXPECT_EQ(list->itemText(clara), QStringLiteral("Clara AIAA at http://127.0.0.1:9"));

  ai->setBackend(0);
  ASSERT_TRUE(test::waitUntil([&] { return ai->connected(); })) << engine.status.toStdString();
  window_->views()->state()->setCursor(SyntheticCt::kBead);
  window_->action("tool.aiClick")->trigger();
  click(view(0), SyntheticCt::kBead);
  ASSERT_TRUE(test::waitUntil([&] { return !ai->busy() && ai->hasProposal(); }, 60000));
  const auto& p = ai->interaction().proposal();
  std::size_t n = 0;
  for (std::size_t i = 0; i < p->voxelCount(); ++i) {
    n += p->data()[i] != 0;
  }
  EXPECT_GT(n, 150u) << "the bead, segmented by the plugin's engine";
  EXPECT_LT(n, 320u);
}

TEST(AiPluginFallback, WithoutTheBuiltinPluginTheAppRunsTheEngineLinkedIntoItAndSaysSo) {
  DELINEATE_REQUIRE_GUI();
  test::TempDir dir;
  // The installed program without its plugin folder: the app looks beside its executable (as
  // /proc/self/exe names it, so a hard link counts as another place) and in an empty
  // DELINEATE_PLUGIN_PATH.
  const std::filesystem::path bin = dir / "bin", empty = dir / "no-plugins";
  std::filesystem::create_directories(bin);
  std::filesystem::create_directories(empty);
  const std::filesystem::path program = bin / "delineate";
  if (::link(DELINEATE_BINARY, program.c_str()) != 0) {
    std::filesystem::copy_file(DELINEATE_BINARY, program);
  }
  const std::filesystem::path image = dir / "ct.nii.gz";
  core::writeVolumeFile(*SyntheticCt::make(), image);
  const QString png = QString::fromStdString((dir / "shot.png").string());
  const QString json = QString::fromStdString((dir / "views.json").string());

  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("DELINEATE_PLUGIN_PATH"), QString::fromStdString(empty.string()));
  p.setProcessEnvironment(env);
  p.start(
      QString::fromStdString(program.string()),
      {QStringLiteral("--screenshot"), png, QStringLiteral("--views-json"), json,
       QStringLiteral("--show"), QStringLiteral("aiDock"), QString::fromStdString(image.string())});
  ASSERT_TRUE(p.waitForFinished(240000)) << p.errorString().toStdString();
  ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  QFile file(json);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QJsonObject ai = QJsonDocument::fromJson(file.readAll()).object().value("ai").toObject();
  const QString status = ai.value("status").toString();
  EXPECT_EQ(ai.value("plugin").toString(), QString()) << "the app's own copy, not a plugin";
  EXPECT_TRUE(status.contains(QStringLiteral("connected"))) << status.toStdString();
  EXPECT_TRUE(status.contains(QStringLiteral("\"builtin\" plugin is not installed")))
      << status.toStdString();
  EXPECT_TRUE(status.contains(QString::fromStdString(empty.string()))) << "where it looked";
  EXPECT_TRUE(status.contains(QStringLiteral("copy inside the app runs"))) << status.toStdString();
  EXPECT_FALSE(ai.value("models").toArray().isEmpty()) << "the engine answered with its models";
}
