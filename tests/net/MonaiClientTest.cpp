// The MONAI Label client against delineate-server over HTTP on 127.0.0.1: every call the
// workstation makes, as a user would notice it (a click gives the structure, the image travels
// once, an expired session is re-created, the datastore and training work).
#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "AiTestSupport.h"
#include "core/Error.h"
#include "core/jobs/ProgressSink.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;
using delineate::plugins::MonaiLabelBackend;

namespace {

core::ai::InferRequest clickRequest(const test::BallImage& ball) {
  core::ai::InferRequest r;
  r.model = annotation::LocalEngineBackend::kClickModel;
  r.image = ball.image;
  r.label = "Lesion";
  r.foreground = {ball.centre};
  return r;
}

plugins::MonaiServerConfig configFor(const std::string& url) {
  plugins::MonaiServerConfig c;
  c.url = url;
  return c;
}

}  // namespace

TEST(MonaiClient, InfoListsTheModelsByKindWithTheDatastore) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  MonaiLabelBackend client(configFor(server.url() + "/"));  // a trailing slash must not matter
  core::NullProgress progress;
  const core::ai::ServerInfo info = client.info(progress);
  EXPECT_EQ(info.name, "Delineate built-in engine");
  const auto deepgrow = info.modelsIn(core::ai::ModelGroup::Deepgrow);
  ASSERT_EQ(deepgrow.size(), 1u);
  EXPECT_EQ(deepgrow[0]->name, annotation::LocalEngineBackend::kClickModel);
  EXPECT_EQ(deepgrow[0]->dimension, 3);
  ASSERT_TRUE(info.datastore.has_value());
  EXPECT_EQ(info.datastore->total, 0);
  EXPECT_EQ(info.strategies.size(), 2u);
}

TEST(MonaiClient, AClickGivesTheStructureAndTheImageTravelsOnce) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  test::BallImage ball;
  MonaiLabelBackend client(configFor(server.url()));
  core::NullProgress progress;
  const core::ai::InferResult first = client.infer(clickRequest(ball), progress);
  ASSERT_NE(first.labels, nullptr);
  EXPECT_TRUE(first.labels->geometry().sameGrid(ball.image->geometry()));
  EXPECT_GT(test::dice(*first.labels, *ball.truth), 0.9);
  ASSERT_FALSE(first.labels->segments().empty());
  EXPECT_EQ(first.labels->segments()[0].name, "Lesion");
  EXPECT_TRUE(first.timings.sessionCreated);
  EXPECT_GT(first.timings.bytesSent, 20000u) << "the image went with the first click";
  ASSERT_TRUE(first.timings.serverSeconds.has_value());

  core::ai::InferRequest more = clickRequest(ball);
  more.background = {{2, 2, 2}};
  const core::ai::InferResult second = client.infer(more, progress);
  EXPECT_FALSE(second.timings.sessionCreated);
  EXPECT_LT(second.timings.bytesSent, 2000u) << "later clicks send only the clicks";
  EXPECT_GT(test::dice(*second.labels, *ball.truth), 0.9);
  EXPECT_EQ(server.app().sessions().size(), 1u);
}

TEST(MonaiClient, ASessionTheServerForgotIsCreatedAgainOnce) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  test::BallImage ball;
  MonaiLabelBackend client(configFor(server.url()));
  core::NullProgress progress;
  client.infer(clickRequest(ball), progress);
  const std::string old = client.sessionFor(*ball.image);
  ASSERT_FALSE(old.empty());
  ASSERT_TRUE(server.app().sessions().remove(old));  // expired on the server
  const core::ai::InferResult again = client.infer(clickRequest(ball), progress);
  EXPECT_TRUE(again.timings.sessionCreated);
  EXPECT_NE(client.sessionFor(*ball.image), old);
  EXPECT_GT(test::dice(*again.labels, *ball.truth), 0.9);
}

TEST(MonaiClient, AnUnknownModelIsNamedInTheMessage) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  test::BallImage ball;
  MonaiLabelBackend client(configFor(server.url()));
  core::NullProgress progress;
  core::ai::InferRequest r = clickRequest(ball);
  r.model = "spleen_ct";
  try {
    client.infer(r, progress);
    FAIL();
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find(server.url()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("spleen_ct"), std::string::npos) << e.what();
  }
}

TEST(MonaiClient, DatastoreAndActiveLearning) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  test::BallImage ball;
  MonaiLabelBackend client(configFor(server.url()));
  core::NullProgress progress;
  EXPECT_EQ(client.uploadImage(*ball.image, "case-a", progress), "case-a");
  EXPECT_EQ(client.uploadImage(*ball.image, "case-b", progress), "case-b");
  auto next = client.nextSample("first", progress);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->id, "case-a");
  client.submitLabel("case-a", *ball.truth, "final", progress);
  next = client.nextSample("first", progress);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->id, "case-b");
  client.submitLabel("case-b", *ball.truth, "final", progress);
  EXPECT_FALSE(client.nextSample("random", progress).has_value()) << "nothing left to label";
  const auto info = client.info(progress);
  EXPECT_EQ(info.datastore->total, 2);
  EXPECT_EQ(info.datastore->completed, 2);
  // Inference by datastore id: no session, no upload.
  core::ai::InferRequest r = clickRequest(ball);
  r.imageId = "case-a";
  const auto result = client.infer(r, progress);
  EXPECT_FALSE(result.timings.sessionCreated);
  EXPECT_GT(test::dice(*result.labels, *ball.truth), 0.9);
  EXPECT_THROW(client.submitLabel("no-such-case", *ball.truth, "final", progress), core::Error);
}

TEST(MonaiClient, TrainingRunsTheConfiguredCommandOnceAtATime) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", "cat \"$DELINEATE_TRAIN_DATASET\" > seen.json; sleep 1");
  test::BallImage ball;
  MonaiLabelBackend client(configFor(server.url()));
  core::NullProgress progress;
  client.uploadImage(*ball.image, "case-a", progress);
  client.submitLabel("case-a", *ball.truth, "final", progress);
  const auto started = client.startTraining("local_deepgrow", {{"max_epochs", 1}}, progress);
  EXPECT_TRUE(started.running);
  try {
    client.startTraining("local_deepgrow", {}, progress);
    FAIL() << "a second run while one runs";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("busy"), std::string::npos) << e.what();
  }
  core::ai::TrainStatus status;
  for (int i = 0; i < 100 && (status = client.trainingStatus(progress)).running; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(status.state, "DONE");
  const std::string folder = status.raw.value("folder", "");
  std::ifstream seen(std::filesystem::path(folder) / "seen.json");
  const auto dataset = nlohmann::json::parse(seen, nullptr, false);
  ASSERT_TRUE(dataset.is_array());
  ASSERT_EQ(dataset.size(), 1u);
  EXPECT_TRUE(std::filesystem::exists(dataset[0].value("label", "")));
}
