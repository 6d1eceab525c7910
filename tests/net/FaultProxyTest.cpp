// The fault-injecting proxy between core/net's HTTP client and the real delineate-server (in this
// process): each fault shows the client what a flaky network or an overloaded server shows it,
// and the server's datastore tells whether the request reached it.
#include "FaultProxy.h"

#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "AiTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/ai/Multipart.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpClient.h"

using namespace delineate;
using delineate::test::FaultMix;
using delineate::test::FaultProxy;
using delineate::test::ProxyFault;

namespace {

using Clock = std::chrono::steady_clock;

core::net::HttpResponse get(core::net::HttpClient& client, const std::string& url) {
  core::net::HttpRequest request;
  request.url = url;
  request.timeout = std::chrono::seconds(10);
  core::NullProgress progress;
  return client.send(request, progress);
}

// PUT /datastore/image?image=<id> with `size` bytes of file: the answer, or the error.
struct Outcome {
  std::optional<core::net::HttpResponse> response;
  std::optional<core::Error> error;
};
Outcome upload(core::net::HttpClient& client, const std::string& base, const std::string& id,
               std::size_t size = 200000, bool reuseConnection = true) {
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<char>(i * 7 + 3);
  }
  core::ai::MultipartEncoder form;
  form.addField("params", "{}");
  form.addFile("file", id + ".nii.gz", bytes);
  core::net::HttpRequest request;
  request.method = "PUT";
  request.url = base + "/datastore/image?image=" + id;
  request.contentType = form.contentType();
  request.body = form.finish();
  request.timeout = std::chrono::seconds(10);
  request.reuseConnection = reuseConnection;
  core::NullProgress progress;
  try {
    return {client.send(request, progress), std::nullopt};
  } catch (const core::Error& e) {
    return {std::nullopt, e};
  }
}

// What the server holds, asked directly.
nlohmann::json datastore(const std::string& server, const std::string& output) {
  const auto r = get(*core::net::makeHttpClient(), server + "/datastore/?output=" + output);
  EXPECT_EQ(r.status, 200) << r.body;
  return nlohmann::json::parse(r.body);
}
int storedImages(const std::string& server) {
  return datastore(server, "stats").value("total", -1);
}

}  // namespace

TEST(FaultProxy, WithoutFaultsEachRequestGetsTheServersOwnAnswer) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  FaultProxy proxy(server.url(), FaultMix::none(), 1);
  const auto client = core::net::makeHttpClient();
  const auto direct = get(*client, server.url() + "/info/");
  ASSERT_EQ(direct.status, 200);
  for (int i = 0; i < 3; ++i) {  // one client: its connection is kept alive between requests
    const auto through = get(*client, proxy.url() + "/info/");
    EXPECT_EQ(through.status, 200);
    EXPECT_EQ(through.body, direct.body);
  }
  EXPECT_EQ(proxy.counts().requests, 3);
  EXPECT_EQ(proxy.counts()[ProxyFault::Pass], 3);
  ASSERT_EQ(upload(*client, proxy.url(), "clean").response.value().status, 200);
  EXPECT_EQ(storedImages(server.url()), 1);
}

TEST(FaultProxy, A429CarriesRetryAfterAndNeverReachesTheServer) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  FaultMix mix = FaultMix::only(ProxyFault::TooManyRequests);
  mix.retryAfterSeconds = 2;
  FaultProxy proxy(server.url(), mix, 1);
  const Outcome out = upload(*core::net::makeHttpClient(), proxy.url(), "busy");
  ASSERT_TRUE(out.response) << out.error->what();
  EXPECT_EQ(out.response->status, 429);
  EXPECT_EQ(out.response->header("Retry-After"), "2");
  EXPECT_EQ(proxy.counts()[ProxyFault::TooManyRequests], 1);
  EXPECT_EQ(storedImages(server.url()), 0);
}

TEST(FaultProxy, A5xxIsAnsweredByTheProxyItself) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  FaultProxy proxy(server.url(), FaultMix::only(ProxyFault::ServerError), 3);
  const auto client = core::net::makeHttpClient();
  std::set<int> statuses;
  for (int i = 0; i < 6; ++i) {
    const auto r = get(*client, proxy.url() + "/info/");
    EXPECT_TRUE(r.status == 500 || r.status == 502 || r.status == 503) << r.status;
    EXPECT_NE(r.body.find("fault injected"), std::string::npos) << r.body;
    statuses.insert(r.status);
  }
  EXPECT_GE(statuses.size(), 2u);  // the status is drawn too
  EXPECT_EQ(proxy.counts()[ProxyFault::ServerError], 6);
  proxy.setMix(FaultMix::none());
  EXPECT_EQ(get(*client, proxy.url() + "/info/").status, 200);
}

TEST(FaultProxy, AnUploadCutOnItsWayIsAnErrorAndIsNotStored) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  FaultProxy proxy(server.url(), FaultMix::only(ProxyFault::ResetRequest), 5);
  const auto client = core::net::makeHttpClient();
  for (int i = 0; i < 4; ++i) {  // the cut falls somewhere else each time
    const Outcome out = upload(*client, proxy.url(), "cut" + std::to_string(i));
    ASSERT_TRUE(out.error) << "status " << out.response->status;
    EXPECT_EQ(out.error->kind(), core::ErrorKind::Network);
    EXPECT_NE(std::string(out.error->what()).find(proxy.url()), std::string::npos)
        << out.error->what();
  }
  EXPECT_EQ(proxy.counts()[ProxyFault::ResetRequest], 4);
  EXPECT_EQ(storedImages(server.url()), 0);
}

TEST(FaultProxy, AnAnswerCutOnItsWayIsAnErrorButTheUploadWasStored) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  FaultProxy proxy(server.url(), FaultMix::only(ProxyFault::ResetResponse), 9);
  const auto client = core::net::makeHttpClient();
  for (int i = 0; i < 3; ++i) {
    const Outcome out = upload(*client, proxy.url(), "lost" + std::to_string(i));
    ASSERT_TRUE(out.error) << "status " << out.response->status;
    EXPECT_EQ(out.error->kind(), core::ErrorKind::Network);
  }
  EXPECT_EQ(proxy.counts()[ProxyFault::ResetResponse], 3);
  EXPECT_EQ(proxy.counts().requests, 3);  // each upload reached the server once
  EXPECT_EQ(storedImages(server.url()), 3);
  EXPECT_TRUE(datastore(server.url(), "all")["objects"].contains("lost2"));
}

TEST(FaultProxy, LatencyDelaysTheAnswerByAtLeastTheMinimum) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  FaultMix mix = FaultMix::only(ProxyFault::Latency);
  mix.latencyMin = std::chrono::milliseconds(300);
  mix.latencyMax = std::chrono::milliseconds(350);
  FaultProxy proxy(server.url(), mix, 1);
  const auto client = core::net::makeHttpClient();
  const auto direct = get(*client, server.url() + "/info/");
  auto start = Clock::now();
  const auto slow = get(*client, proxy.url() + "/info/");
  const auto slowTime = Clock::now() - start;
  EXPECT_EQ(slow.body, direct.body);
  EXPECT_GE(slowTime, mix.latencyMin);
  EXPECT_EQ(proxy.counts()[ProxyFault::Latency], 1);
  proxy.setMix(FaultMix::none());
  start = Clock::now();
  EXPECT_EQ(get(*client, proxy.url() + "/info/").status, 200);
  EXPECT_LT(Clock::now() - start, mix.latencyMin);
}

TEST(FaultProxy, TheSameSeedReplaysTheSameFaults) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  FaultMix mix;
  mix.resetRequest = mix.resetResponse = mix.serverError = mix.tooManyRequests = 0.15;
  mix.latency = 0.15;
  mix.latencyMin = std::chrono::milliseconds(1);
  mix.latencyMax = std::chrono::milliseconds(5);
  // What the client saw of each of 16 requests: the status, or "error". A client per request:
  // a kept-alive connection is reused or not depending on timing, and a fault on a reused one
  // makes the client send again by itself (see the test below), which would add a draw.
  const auto run = [&](std::uint32_t seed) {
    FaultProxy proxy(server.url(), mix, seed);
    std::vector<std::string> seen;
    for (int i = 0; i < 16; ++i) {
      try {
        const auto client = core::net::makeHttpClient();
        seen.push_back(std::to_string(get(*client, proxy.url() + "/info/").status));
      } catch (const core::Error&) {
        seen.push_back("error");
      }
    }
    return std::make_pair(proxy.history(), seen);
  };
  const auto [faults, seen] = run(2024);
  const auto [again, seenAgain] = run(2024);
  const auto [other, seenOther] = run(2025);
  EXPECT_EQ(again, faults);
  EXPECT_EQ(seenAgain, seen);
  EXPECT_NE(other, faults);
  EXPECT_GE(std::set<ProxyFault>(faults.begin(), faults.end()).size(), 4u);
}

// One upload whose answer is lost before its first byte, sent after a GET has left a kept-alive
// connection in the client's pool: how many times the proxy saw it, and what the server stored.
struct LostAnswer {
  Outcome outcome;
  int resets = 0;
  int requests = 0;
  int stored = 0;
};
LostAnswer uploadWithTheAnswerLost(bool reuseConnection) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  FaultProxy proxy(server.url(), FaultMix::none(), 1);
  const auto client = core::net::makeHttpClient();
  EXPECT_EQ(get(*client, proxy.url() + "/info/").status, 200);
  // The library hands the connection back to its pool just after the answer; give it time.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  FaultMix lost = FaultMix::only(ProxyFault::ResetResponse);
  lost.cutAt = 0;
  proxy.setMix(lost);
  LostAnswer out;
  out.outcome = upload(*client, proxy.url(), "lost", 200000, reuseConnection);
  out.resets = proxy.counts()[ProxyFault::ResetResponse];
  out.requests = proxy.counts().requests;
  out.stored = storedImages(server.url());
  return out;
}

// The trap a retrying upload queue must survive: the HTTP library sends a request again by
// itself when an answer is lost before its first byte on a connection it had kept alive (it
// takes that for a server that closed an idle connection). The server then gets the upload
// twice for one send.
TEST(FaultProxy, AnAnswerLostOnAKeptAliveConnectionMakesTheClientSendAgain) {
  const LostAnswer r = uploadWithTheAnswerLost(true);
  EXPECT_TRUE(r.outcome.error);
  EXPECT_EQ(r.resets, 2);
  EXPECT_EQ(r.requests, 3);
  EXPECT_EQ(r.stored, 1);  // the same id both times: stored once
}

// What the uploads use (HttpRequest::reuseConnection = false): a connection of its own, so a lost
// answer is the caller's to handle and the request goes once.
TEST(FaultProxy, ARequestOnItsOwnConnectionIsNotSentAgain) {
  const LostAnswer r = uploadWithTheAnswerLost(false);
  EXPECT_TRUE(r.outcome.error);
  EXPECT_EQ(r.resets, 1);
  EXPECT_EQ(r.requests, 2);
  EXPECT_EQ(r.stored, 1);
}
