// Each way a server can fail the client, over real sockets: the message names the server and
// says what happened, nothing reaches the user's label map (the call throws), and the client can
// be used again afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "AiTestSupport.h"
#include "FaultServer.h"
#include "core/Error.h"
#include "core/ai/Multipart.h"
#include "core/ai/VolumeBytes.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;
using delineate::test::FaultAction;

namespace {

const std::string kJsonType = "application/json";

// A click at the ball's centre for `model` (the built-in engine's click model by default).
core::ai::InferRequest ballClick(const test::BallImage& ball,
                                 std::string model = annotation::LocalEngineBackend::kClickModel) {
  core::ai::InferRequest r;
  r.model = std::move(model);
  r.image = ball.image;
  r.foreground = {ball.centre};
  return r;
}

// A server whose /info/ and /session/ work and whose /infer answers `inferAnswer`.
test::FaultServer::Script script(FaultAction inferAnswer) {
  return [inferAnswer](const std::string& method, const std::string& path) {
    if (path == "/info/") {
      return test::answer(200, kJsonType, annotation::LocalEngineBackend::infoJson().dump());
    }
    if (path == "/session/" && method == "PUT") {
      return test::answer(200, kJsonType, R"({"session_id": "s-1", "session_info": {}})");
    }
    return inferAnswer;
  };
}

// The message of the error the client throws for one click.
std::string clickError(const std::string& url, std::chrono::milliseconds timeout = {}) {
  test::BallImage ball;
  plugins::MonaiServerConfig config;
  config.url = url;
  if (timeout.count() > 0) {
    config.inferTimeout = timeout;
  }
  plugins::MonaiLabelBackend client(config);
  core::NullProgress progress;
  try {
    client.infer(ballClick(ball), progress);
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find(url), std::string::npos) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

std::string multipartAnswer(const std::string& label) {
  core::ai::MultipartEncoder form("0123456789abcdef0123456789abcdef");
  form.addField("params", R"({"label_names": {"lesion": 1}, "latencies": {"total": 0.5}})");
  form.addFile("image", "tmp1.nii.gz", label);
  return form.finish();
}

std::string labelOfSize(std::size_t nx) {
  core::ImageGeometry g;
  g.size = {nx, 44, 40};
  g.spacing = {0.9, 0.9, 1.5};
  g.origin = {-20, -18, 30};
  core::LabelMap m("x", g);
  return core::ai::volumeToBytes(*m.asVolume(), "l.nii.gz");
}

const char* kMultipart = "multipart/form-data; boundary=0123456789abcdef0123456789abcdef";

}  // namespace

TEST(MonaiFaults, A500WithABareTextBodySendsTheUserToTheServerLog) {
  test::FaultServer server(script(test::answer(500, "text/plain", "Internal Server Error")));
  const std::string m = clickError(server.url());
  EXPECT_NE(m.find("500"), std::string::npos) << m;
  EXPECT_NE(m.find("log"), std::string::npos) << m;
}

TEST(MonaiFaults, UnauthorizedForbiddenAndBusyAreToldApart) {
  test::FaultServer a(script(test::answer(401, kJsonType, R"({"detail": "Not authenticated"})")));
  test::FaultServer b(script(test::answer(403, kJsonType, R"({"detail": "Forbidden"})")));
  test::FaultServer c(script(test::answer(429, kJsonType, R"({"detail": "busy"})")));
  test::FaultServer d(script(test::answer(404, kJsonType, R"({"detail": "Not Found"})")));
  const std::string unauthorized = clickError(a.url()), forbidden = clickError(b.url()),
                    busy = clickError(c.url()), missing = clickError(d.url());
  EXPECT_NE(unauthorized.find("401"), std::string::npos) << unauthorized;
  EXPECT_NE(forbidden.find("403"), std::string::npos) << forbidden;
  EXPECT_NE(busy.find("busy"), std::string::npos) << busy;
  EXPECT_NE(missing.find("404"), std::string::npos) << missing;
  EXPECT_NE(unauthorized, forbidden);
}

TEST(MonaiFaults, AMultipartBodyThatStopsHalfwayIsReportedNotRead) {
  const std::string body = multipartAnswer(labelOfSize(48));
  test::FaultServer server(script(test::closeAfter(200, kMultipart, body, body.size() / 2)));
  const std::string m = clickError(server.url());
  EXPECT_NE(m.find("image"), std::string::npos) << m;
}

TEST(MonaiFaults, ABodyShorterThanItsLengthIsReported) {
  const std::string body = multipartAnswer(labelOfSize(48));
  FaultAction cut = test::answer(200, kMultipart, body);
  cut.cutAt = cut.bytes.size() - body.size() / 2;
  test::FaultServer server(script(cut));
  clickError(server.url());  // names the server; the exact words are the HTTP library's
}

TEST(MonaiFaults, ALabelOfTheWrongSizeIsRefusedWithTheDifference) {
  test::FaultServer server(script(test::answer(200, kMultipart, multipartAnswer(labelOfSize(40)))));
  const std::string m = clickError(server.url());
  EXPECT_NE(m.find("40x44x40 vs 48x44x40"), std::string::npos) << m;
  EXPECT_NE(m.find("nothing was changed"), std::string::npos) << m;
}

TEST(MonaiFaults, GarbageInsteadOfALabelIsReported) {
  test::FaultServer server(
      script(test::answer(200, "application/octet-stream", std::string(300, '\x07'))));
  const std::string m = clickError(server.url());
  EXPECT_NE(m.find("not a readable image"), std::string::npos) << m;
}

TEST(MonaiFaults, ARequestThatNeverCompletesTimesOut) {
  FaultAction hang;
  hang.hang = true;
  test::FaultServer server(script(hang));
  const auto start = std::chrono::steady_clock::now();
  const std::string m = clickError(server.url(), std::chrono::milliseconds(800));
  EXPECT_NE(m.find("no complete answer"), std::string::npos) << m;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5);
}

TEST(MonaiFaults, InfoThatIsNotJsonIsReported) {
  test::FaultServer server([](const std::string&, const std::string&) {
    return test::answer(200, "text/html", "<html><body>Welcome to nginx</body></html>");
  });
  plugins::MonaiServerConfig config;
  config.url = server.url();
  plugins::MonaiLabelBackend client(config);
  core::NullProgress progress;
  try {
    client.info(progress);
    FAIL();
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("not JSON"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(server.url()), std::string::npos) << e.what();
  }
}

TEST(MonaiFaults, TheClientWorksAgainOnceTheServerDoes) {
  bool broken = true;
  test::LocalServer real(test::TempDir().path() / "store");
  test::FaultServer flaky([&](const std::string& method, const std::string& path) {
    if (broken) {
      return test::answer(503, "text/plain", "Service Unavailable");
    }
    (void)method;
    (void)path;
    return test::answer(200, kJsonType, annotation::LocalEngineBackend::infoJson().dump());
  });
  plugins::MonaiServerConfig config;
  config.url = flaky.url();
  plugins::MonaiLabelBackend client(config);
  core::NullProgress progress;
  EXPECT_THROW(client.info(progress), core::Error);
  broken = false;
  EXPECT_EQ(client.info(progress).models.size(),
            annotation::LocalEngineBackend::infoJson()["models"].size());
}

// A real MONAI Label server answers an inference on a session it let expire with a bare 500;
// only GET /session/{id} says it is gone. The client asks, creates the session again and
// retries once.
TEST(MonaiFaults, AnExpiredSessionThatTheServerAnswersWith500IsCreatedAgain) {
  const test::BallImage ball;
  std::atomic<int> sessions{0}, infers{0};
  const std::string label = core::ai::volumeToBytes(*ball.truth->asVolume(), "l.nii.gz");
  test::FaultServer server([&](const std::string& method, const std::string& path) {
    if (path == "/info/") {
      return test::answer(200, kJsonType, annotation::LocalEngineBackend::infoJson().dump());
    }
    if (path == "/session/" && method == "PUT") {
      const int n = ++sessions;
      return test::answer(
          200, kJsonType,
          R"({"session_id": "s-)" + std::to_string(n) + R"(", "session_info": {}})");
    }
    if (path.rfind("/session/", 0) == 0 && method == "GET") {
      return test::answer(404, kJsonType, R"({"detail": "Session (s-1) Not Found"})");
    }
    if (path.rfind("/infer/", 0) == 0 && ++infers == 1) {
      return test::answer(500, "text/plain", "Internal Server Error");
    }
    return test::answer(200, kMultipart, multipartAnswer(label));
  });
  plugins::MonaiServerConfig config;
  config.url = server.url();
  plugins::MonaiLabelBackend client(config);
  core::NullProgress progress;
  const core::ai::InferResult result = client.infer(ballClick(ball), progress);
  ASSERT_NE(result.labels, nullptr);
  EXPECT_GT(test::dice(*result.labels, *ball.truth), 0.99);
  const auto requests = server.requests();
  EXPECT_EQ(sessions.load(), 2) << "created again once";
  EXPECT_NE(std::find(requests.begin(), requests.end(), "GET /session/s-1"), requests.end());
  EXPECT_NE(requests.back().find("session_id=s-2"), std::string::npos) << requests.back();
}

// With sessions turned off (MONAI_LABEL_SESSIONS=false) the server answers 406: the image then
// goes with each request.
TEST(MonaiFaults, AServerWithSessionsOffGetsTheImageWithEachRequest) {
  const test::BallImage ball;
  const std::string label = core::ai::volumeToBytes(*ball.truth->asVolume(), "l.nii.gz");
  test::FaultServer server([&](const std::string& method, const std::string& path) {
    if (path == "/info/") {
      return test::answer(200, kJsonType, annotation::LocalEngineBackend::infoJson().dump());
    }
    if (path == "/session/" && method == "PUT") {
      return test::answer(406, kJsonType, R"({"detail": "Session Feature is Not Enabled"})");
    }
    return test::answer(200, kMultipart, multipartAnswer(label));
  });
  plugins::MonaiServerConfig config;
  config.url = server.url();
  plugins::MonaiLabelBackend client(config);
  core::NullProgress progress;
  for (int click = 0; click < 2; ++click) {
    const core::ai::InferResult result = client.infer(ballClick(ball), progress);
    ASSERT_NE(result.labels, nullptr);
  }
  const auto requests = server.requests();
  const auto puts = std::count(requests.begin(), requests.end(), "PUT /session/?expiry=3600");
  EXPECT_LE(puts, 1) << "asked once, then no more";
  EXPECT_EQ(requests.back().find("session_id="), std::string::npos) << requests.back();
}

// MONAI Label's deepgrow models list every organ they know, by name only, and answer one mask
// of 0 and 1 whatever the organ: the 1s are the structure asked for, not the list's first.
TEST(MonaiFaults, ADeepgrowAnswerListingEveryOrganIsTheOneStructureAskedFor) {
  const test::BallImage ball;
  const std::string label = core::ai::volumeToBytes(*ball.truth->asVolume(), "l.nii.gz");
  core::ai::MultipartEncoder form("0123456789abcdef0123456789abcdef");
  form.addField("params", R"({"label_names": ["spleen", "right kidney", "liver"]})");
  form.addFile("image", "tmpab12.nii.gz", label);
  const std::string body = form.finish();
  test::FaultServer server([&](const std::string& method, const std::string& path) {
    if (path == "/info/") {
      return test::answer(200, kJsonType,
                          R"({"name": "radiology", "labels": ["spleen", "right kidney", "liver"],
              "models": {"deepgrow_3d": {"type": "deepgrow", "dimension": 3,
                                         "labels": ["spleen", "right kidney", "liver"]}}})");
    }
    if (path == "/session/" && method == "PUT") {
      return test::answer(200, kJsonType, R"({"session_id": "s-1", "session_info": {}})");
    }
    return test::answer(200, kMultipart, body);
  });
  plugins::MonaiServerConfig config;
  config.url = server.url();
  plugins::MonaiLabelBackend client(config);
  core::NullProgress progress;
  client.info(progress);
  core::ai::InferRequest r = ballClick(ball, "deepgrow_3d");
  r.label = "liver";
  const core::ai::InferResult result = client.infer(r, progress);
  ASSERT_NE(result.labels, nullptr);
  ASSERT_EQ(result.labels->segments().size(), 1u);
  EXPECT_EQ(result.labels->segments()[0].name, "liver");
  EXPECT_EQ(result.labels->segments()[0].label, 1);
  EXPECT_GT(test::dice(*result.labels, *ball.truth), 0.99);
}
