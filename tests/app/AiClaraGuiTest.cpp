// A Clara AIAA server in the workstation: added as one, listed with its models, and a click on
// the bead proposes it through the AIAA v1 API (delineate-server's /v1 routes in this process,
// on 127.0.0.1). The server entry survives in the settings as a Clara one.
#include <gtest/gtest.h>

#include <QSettings>
#include <memory>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/server/MonaiServer.h"
#include "core/net/HttpServer.h"
#include "viewers/ViewLayout.h"

using namespace delineate;
using test::SyntheticCt;

namespace {

class AiClaraGuiTest : public test::EditingWindowTest {};

}  // namespace

TEST_F(AiClaraGuiTest, AClaraServerProposesTheBeadFromAClick) {
  test::ForgetServers forget;
  server::ServerOptions options;
  options.datastore = dir_ / "store";
  server::MonaiServer app(std::make_shared<annotation::LocalEngineBackend>(), options);
  const std::string url = "http://127.0.0.1:" + std::to_string(core::net::freeLocalPort());
  core::net::HttpServer http(url,
                             [&app](const core::net::ServerRequest& r) { return app.handle(r); });

  app::AiController* ai = editing()->ai();
  const int index = ai->addServer(QString::fromStdString(url), QStringLiteral("clara-aiaa"));
  ASSERT_TRUE(test::waitUntil([&] { return ai->connected(); }, 30000))
      << ai->backends()[std::size_t(index)].status.toStdString();
  EXPECT_TRUE(ai->backends()[std::size_t(index)].name.startsWith("Clara AIAA at "));
  EXPECT_EQ(ai->model().toStdString(), annotation::LocalEngineBackend::kClickModel)
      << "the click model comes first";
  EXPECT_TRUE(QSettings()
                  .value(QStringLiteral("ai/servers"))
                  .toStringList()
                  .contains(QStringLiteral("clara-aiaa ") + QString::fromStdString(url)));

  window_->views()->state()->setCursor(SyntheticCt::kBead);
  window_->action("tool.aiClick")->trigger();
  click(view(0), SyntheticCt::kBead);
  ASSERT_TRUE(test::waitUntil([&] { return !ai->busy() && ai->hasProposal(); }, 60000));
  const auto& p = ai->interaction().proposal();
  std::size_t n = 0;
  for (std::size_t i = 0; i < p->voxelCount(); ++i) {
    n += p->data()[i] != 0;
  }
  EXPECT_GT(n, 150u);
  EXPECT_LT(n, 320u);
  EXPECT_EQ(app.sessions().size(), 1u) << "the image went into an AIAA session once";
  ASSERT_TRUE(ai->accept());
  ASSERT_TRUE(waitSettled());
  EXPECT_EQ(countLabel(), n);
}
