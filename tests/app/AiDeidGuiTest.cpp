// De-identification in the AI dock: a DICOM image whose Burned In Annotation is YES, clicked
// with a MONAI Label server (delineate-server in this process) that has de-identification on,
// is not sent: the dock warns, naming the image and why, no proposal appears, the label map is
// unchanged and the server saw no image. With the server's setting turned off (kept in its
// settings entry) the same click is answered.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QLabel>
#include <QSettings>
#include <atomic>
#include <memory>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/AiDock.h"
#include "app/gui/ai/ServerEntry.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/server/MonaiServer.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/net/HttpServer.h"
#include "viewers/ViewLayout.h"

using namespace delineate;
using test::SyntheticCt;

namespace {

class AiDeidGuiTest : public test::EditingWindowTest {};

}  // namespace

TEST(ServerEntry, EarlierEntriesReadAsBeforeAndTheSettingIsKeptWithTheEntry) {
  const app::ServerEntry bare = app::ServerEntry::parse(QStringLiteral("http://gpu:8000"));
  EXPECT_EQ(bare.kind, QStringLiteral("monai-label"));
  EXPECT_EQ(bare.url, QStringLiteral("http://gpu:8000"));
  EXPECT_TRUE(bare.deidentify) << "de-identification is on unless turned off";
  EXPECT_EQ(bare.toString(), QStringLiteral("http://gpu:8000")) << "unchanged settings stay";
  const auto clara = app::ServerEntry::parse(QStringLiteral("clara-aiaa http://aiaa:5000"));
  EXPECT_EQ(clara.kind, QStringLiteral("clara-aiaa"));
  EXPECT_TRUE(clara.deidentify);
  EXPECT_EQ(clara.toString(), QStringLiteral("clara-aiaa http://aiaa:5000"));

  app::ServerEntry trusted = bare;
  trusted.deidentify = false;
  EXPECT_EQ(trusted.toString(), QStringLiteral("monai-label http://gpu:8000 deidentify=off"));
  const auto back = app::ServerEntry::parse(trusted.toString());
  EXPECT_FALSE(back.deidentify);
  EXPECT_EQ(back.url, bare.url);
  const auto later = app::ServerEntry::parse(QStringLiteral("monai-label http://gpu:8000 tls=pin"));
  EXPECT_EQ(later.toString(), QStringLiteral("monai-label http://gpu:8000 tls=pin"))
      << "an option of a later version survives";
}

TEST_F(AiDeidGuiTest, ABurnedInImageIsNotSentAndTheDockSaysWhy) {
  test::ForgetServers forget;
  // The synthetic CT as DICOM that declares text burned into its pixels.
  const auto folder = dir_ / "burned";
  core::DicomWriteOptions write;
  write.attributes = {{"BurnedInAnnotation", "YES"}};
  core::NullProgress quiet;
  core::writeDicomSeries(*SyntheticCt::make(), folder, write, quiet);
  bool shown = false;
  const auto shownConnection =
      QObject::connect(window_.get(), &app::MainWindow::volumeShown, [&shown] { shown = true; });
  window_->openPath(QString::fromStdString(folder.string()));
  const bool opened = test::waitUntil([&] { return shown; }, 60000);
  QObject::disconnect(shownConnection);
  ASSERT_TRUE(opened);
  ASSERT_TRUE(waitSettled());

  server::ServerOptions options;
  options.datastore = dir_ / "store";
  server::MonaiServer app(std::make_shared<annotation::LocalEngineBackend>(), options);
  std::atomic<int> imageRequests{0};
  const std::string url = "http://127.0.0.1:" + std::to_string(core::net::freeLocalPort());
  core::net::HttpServer http(url, [&](const core::net::ServerRequest& r) {
    imageRequests += r.method != "GET";  // sessions, inference, uploads
    return app.handle(r);
  });

  app::AiController* ai = editing()->ai();
  app::AiDock* dock = editing()->aiDock();
  const int index = ai->addServer(QString::fromStdString(url));
  ASSERT_TRUE(test::waitUntil([&] { return ai->connected(); }, 30000))
      << ai->backends()[std::size_t(index)].status.toStdString();
  EXPECT_TRUE(dock->deidentifyBox()->isEnabled());
  EXPECT_TRUE(dock->deidentifyBox()->isChecked()) << "a new server de-identifies";

  window_->views()->state()->setCursor(SyntheticCt::kBead);
  window_->action("tool.aiClick")->trigger();
  click(view(0), SyntheticCt::kBead);
  ASSERT_TRUE(test::waitUntil([&] { return !dock->messageLabel()->isHidden(); }, 10000));
  const std::string warning = dock->messageLabel()->text().toStdString();
  EXPECT_NE(warning.find(folder.string()), std::string::npos) << warning;
  EXPECT_NE(warning.find("Burned In Annotation is YES"), std::string::npos) << warning;
  EXPECT_FALSE(ai->busy());
  EXPECT_FALSE(ai->hasProposal());
  EXPECT_EQ(countLabel(), 0u) << "the label map is unchanged";
  EXPECT_EQ(imageRequests, 0) << "nothing but the model list went to the server";
  EXPECT_EQ(app.sessions().size(), 0u);
  EXPECT_FALSE(errors_.empty()) << "the status bar says it too";

  // A trusted server: the setting is turned off where the server is chosen, kept in its entry,
  // and the same click is answered.
  dock->deidentifyBox()->click();
  EXPECT_FALSE(ai->backends()[std::size_t(index)].deidentify);
  EXPECT_TRUE(QSettings()
                  .value(QStringLiteral("ai/servers"))
                  .toStringList()
                  .contains(QStringLiteral("monai-label ") + QString::fromStdString(url) +
                            QStringLiteral(" deidentify=off")));
  ai->run();
  ASSERT_TRUE(test::waitUntil([&] { return !ai->busy() && ai->hasProposal(); }, 60000));
  EXPECT_TRUE(dock->messageLabel()->isHidden()) << "the warning went with the new request";
  EXPECT_EQ(app.sessions().size(), 1u);
  EXPECT_EQ(countLabel(), 0u) << "a proposal is not an edit";
}
