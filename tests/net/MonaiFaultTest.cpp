// Each way a server can fail the client, over real sockets: the message names the server and
// says what happened, nothing reaches the user's label map (the call throws), and the client can
// be used again afterwards.
#include <gtest/gtest.h>

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
  core::ai::InferRequest r;
  r.model = annotation::LocalEngineBackend::kClickModel;
  r.image = ball.image;
  r.foreground = {ball.centre};
  core::NullProgress progress;
  try {
    client.infer(r, progress);
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
