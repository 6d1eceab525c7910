// An nnInteractive server in the workstation (delineate-server's nnInteractive routes in this
// process, on 127.0.0.1, with an API key): refused until its key is set in Preferences > AI
// servers, then a box proposes the bead, a negative click shrinks it, and Edit > Undo takes the
// click back on the server (its own undo), giving the box's proposal again. A session the server
// let go is claimed again, and the AI panel says so.
#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <chrono>
#include <memory>
#include <thread>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/AiDock.h"
#include "app/gui/ai/AiServersPage.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/server/MonaiServer.h"
#include "core/net/HttpServer.h"
#include "viewers/ViewLayout.h"

using namespace delineate;
using test::SyntheticCt;

namespace {

class AiNnInteractiveGuiTest : public test::EditingWindowTest {
 protected:
  app::AiController* ai() const { return editing()->ai(); }

  void startServer(double idleTimeout = 600) {
    server::ServerOptions options;
    options.datastore = dir_ / "store";
    options.nnInteractive.apiKey = "secret-key";
    options.nnInteractive.leases.idleTimeoutSeconds = idleTimeout;
    app_ = std::make_unique<server::MonaiServer>(std::make_shared<annotation::LocalEngineBackend>(),
                                                 options);
    url_ = "http://127.0.0.1:" + std::to_string(core::net::freeLocalPort());
    http_ = std::make_unique<core::net::HttpServer>(
        url_, [this](const core::net::ServerRequest& r) { return app_->handle(r); });
  }

  // Adds the server, sets its key through the preferences page's entry point, and waits.
  int addServerWithKey() {
    const int index =
        ai()->addServer(QString::fromStdString(url_), QStringLiteral("nninteractive"));
    EXPECT_TRUE(test::waitUntil([&] {
      return ai()->backends()[std::size_t(index)].status.contains(QStringLiteral("API key"));
    })) << ai()->backends()[std::size_t(index)].status.toStdString();
    app::AiServersPage page(ai());
    page.table()->selectRow(index);
    EXPECT_TRUE(page.apiKeyButton()->isEnabled()) << "nnInteractive servers take a key";
    ai()->setApiKey(index, QStringLiteral("secret-key"));
    EXPECT_TRUE(test::waitUntil([&] { return ai()->connected(); }, 30000))
        << ai()->backends()[std::size_t(index)].status.toStdString();
    return index;
  }

  std::size_t proposalVoxels() const {
    return test::nonZeroVoxels(ai()->interaction().proposal().get());
  }

  void drawBox() {
    window_->views()->state()->setCursor(SyntheticCt::kBead);
    window_->action("tool.aiBox")->trigger();
    const core::Vec3 b = SyntheticCt::kBead;
    stroke(view(0), {{b[0] - 10, b[1] - 10, b[2]}, {b[0] + 10, b[1] + 10, b[2]}});
    ASSERT_TRUE(test::waitUntil([&] { return !ai()->busy() && ai()->hasProposal(); }, 60000));
  }

  std::unique_ptr<server::MonaiServer> app_;
  std::string url_;
  std::unique_ptr<core::net::HttpServer> http_;
};

}  // namespace

TEST_F(AiNnInteractiveGuiTest, TheKeyIsAskedABoxProposesAndUndoIsTheServers) {
  test::ForgetServers forget;
  startServer();
  addServerWithKey();
  EXPECT_EQ(ai()->model(), QStringLiteral("nninteractive"));
  drawBox();
  const std::vector<std::uint16_t> boxOnly(
      ai()->interaction().proposal()->data(),
      ai()->interaction().proposal()->data() + ai()->interaction().proposal()->voxelCount());
  const std::size_t n = proposalVoxels();
  EXPECT_GT(n, 150u);
  EXPECT_LT(n, 320u);
  EXPECT_EQ(app_->nnInteractive().leases().size(), 1u);

  // A negative click on the bead's edge, then Undo: the server takes it back.
  window_->action("tool.aiClick")->trigger();
  click(view(0), {SyntheticCt::kBead[0] + 4, SyntheticCt::kBead[1], 0}, Qt::ShiftModifier);
  ASSERT_TRUE(test::waitUntil([&] { return !ai()->busy(); }, 60000));
  EXPECT_LT(proposalVoxels(), n);
  EXPECT_EQ(window_->action("edit.undo")->text(), QStringLiteral("&Undo Click"));
  window_->action("edit.undo")->trigger();
  ASSERT_TRUE(test::waitUntil([&] { return !ai()->busy(); }, 60000));
  const auto& p = ai()->interaction().proposal();
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(std::equal(boxOnly.begin(), boxOnly.end(), p->data()))
      << "the server's undo gives the box's proposal back";
  EXPECT_TRUE(ai()->interaction().clicks().empty());
}

TEST_F(AiNnInteractiveGuiTest, ASessionTheServerLetGoIsClaimedAgainAndTheAiPanelSaysSo) {
  test::ForgetServers forget;
  startServer(0.5);
  addServerWithKey();
  drawBox();
  EXPECT_FALSE(editing()->aiDock()->timingsLabel()->text().contains(QStringLiteral("renewed")));
  // Until the server has reaped the idle session.
  ASSERT_TRUE(test::waitUntil([&] { return app_->nnInteractive().leases().size() == 0; }, 20000));
  const core::Vec3 b = SyntheticCt::kBead;
  window_->action("tool.aiClick")->trigger();
  click(view(0), {b[0] + 1, b[1], b[2]});
  ASSERT_TRUE(test::waitUntil([&] { return !ai()->busy() && ai()->hasProposal(); }, 60000));
  EXPECT_GT(proposalVoxels(), 150u);
  EXPECT_TRUE(test::waitUntil(
      [&] {
        return editing()->aiDock()->timingsLabel()->text().contains(QStringLiteral("renewed"));
      },
      5000))
      << editing()->aiDock()->timingsLabel()->text().toStdString();
}
