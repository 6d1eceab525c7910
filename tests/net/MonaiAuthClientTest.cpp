// The MONAI Label client's sign-in against delineate-server with auth on, in this process on
// 127.0.0.1: the probe, the password grant, the bearer token on every call, the renewal before a
// short-lived token expires and after the server stops validating one (the call then sent again,
// once), and the errors a user sees: a rejected password, and "sign-in needed" naming the server
// when the renewal fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "AiTestSupport.h"
#include "FaultServer.h"
#include "core/Base64.h"
#include "core/Error.h"
#include "core/jobs/ProgressSink.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;
using plugins::MonaiLabelBackend;

namespace {

// The real HTTP client, counting what it sends (the token grants and the calls).
class CountingClient : public core::net::HttpClient {
 public:
  CountingClient(std::atomic<int>& tokenPosts, std::atomic<int>& calls)
      : real_(core::net::makeHttpClient()), tokenPosts_(tokenPosts), calls_(calls) {}
  core::net::HttpResponse send(const core::net::HttpRequest& r,
                               core::ProgressSink& progress) override {
    (r.url.find("/auth/token") != std::string::npos ? tokenPosts_ : calls_)++;
    return real_->send(r, progress);
  }

 private:
  std::unique_ptr<core::net::HttpClient> real_;
  std::atomic<int>& tokenPosts_;
  std::atomic<int>& calls_;
};

server::AuthOptions users(std::chrono::seconds lifetime) {
  server::AuthOptions o;
  o.users = {{"alice", "s3cret&=", {server::kRoleUser, server::kRoleAnnotator}}};
  o.tokenLifetime = lifetime;
  return o;
}

plugins::MonaiServerConfig authConfigFor(const std::string& url) {
  plugins::MonaiServerConfig c;
  c.url = url;
  return c;
}

}  // namespace

TEST(MonaiAuthClient, TheProbeReadsA404AsOffAndTheAuthRouteAsOn) {
  test::TempDir dir;
  test::LocalServer off(dir / "off");
  test::LocalServer on(dir / "on", {}, users(std::chrono::seconds(300)));
  core::NullProgress progress;
  EXPECT_FALSE(MonaiLabelBackend(authConfigFor(off.url())).signInEnabled(progress));
  EXPECT_TRUE(MonaiLabelBackend(authConfigFor(on.url())).signInEnabled(progress));
}

TEST(MonaiAuthClient, SignedInEveryCallWorksAndAShortLivedTokenIsRenewedBeforeItExpires) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, users(std::chrono::seconds(1)));
  std::atomic<int> tokenPosts{0}, calls{0};
  MonaiLabelBackend client(authConfigFor(server.url()),
                           std::make_unique<CountingClient>(tokenPosts, calls));
  core::NullProgress progress;
  const core::ai::SignInTokens t = client.signIn("alice", "s3cret&=", progress);
  EXPECT_FALSE(t.accessToken.empty());
  EXPECT_FALSE(t.refreshToken.empty());
  EXPECT_GT(t.expires, std::chrono::system_clock::now());
  EXPECT_LE(t.expires, std::chrono::system_clock::now() + std::chrono::seconds(2));
  EXPECT_EQ(tokenPosts, 1);

  std::this_thread::sleep_for(std::chrono::milliseconds(1200));  // the access token is dead
  // A whole inference (session upload + /infer) goes through with the renewed token.
  test::BallImage ball;
  core::ai::InferRequest r;
  r.model = annotation::LocalEngineBackend::kClickModel;
  r.image = ball.image;
  r.label = "Lesion";
  r.foreground = {ball.centre};
  const core::ai::InferResult result = client.infer(r, progress);
  EXPECT_GT(test::dice(*result.labels, *ball.truth), 0.9);
  EXPECT_NE(client.signInTokens().accessToken, t.accessToken);
  EXPECT_GE(tokenPosts, 2) << "a token within 30 s of expiry is renewed before the call";
}

TEST(MonaiAuthClient, ATokenTheServerRejectsIsRenewedOnceAndTheCallSentAgain) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, users(std::chrono::seconds(300)));
  std::atomic<int> tokenPosts{0}, calls{0};
  MonaiLabelBackend client(authConfigFor(server.url()),
                           std::make_unique<CountingClient>(tokenPosts, calls));
  core::NullProgress progress;
  core::ai::SignInTokens t = client.signIn("alice", "s3cret&=", progress);
  // As after a server restart: the access token looks fresh to us but the server forgot it.
  t.accessToken = "forgotten";
  client.setSignInTokens(t);
  calls = 0;
  tokenPosts = 0;
  EXPECT_EQ(client.info(progress).name, "Delineate built-in engine");
  EXPECT_EQ(tokenPosts, 1);
  EXPECT_EQ(calls, 2) << "the 401, then the same call again";
  EXPECT_NE(client.signInTokens().accessToken, "forgotten");
  EXPECT_EQ(client.signInTokens().refreshToken.empty(), false);
}

TEST(MonaiAuthClient, AWrongPasswordIsAnErrorNamingTheServer) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, users(std::chrono::seconds(300)));
  MonaiLabelBackend client(authConfigFor(server.url()));
  core::NullProgress progress;
  try {
    client.signIn("alice", "guess", progress);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.where(), server.url());
    EXPECT_NE(m.find(server.url()), std::string::npos) << m;
    EXPECT_NE(m.find("rejected the user name or password"), std::string::npos) << m;
    EXPECT_NE(m.find("Invalid username or password"), std::string::npos) << m;
  }
  EXPECT_TRUE(client.signInTokens().empty());
}

TEST(MonaiAuthClient, WithoutSignInOrWhenRenewalFailsTheErrorSaysSignInIsNeeded) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, users(std::chrono::seconds(300)));
  core::NullProgress progress;
  MonaiLabelBackend anonymous(authConfigFor(server.url()));
  try {
    anonymous.info(progress);
    FAIL() << "no error";
  } catch (const core::ai::SignInRequired& e) {
    EXPECT_EQ(e.where(), server.url());
    EXPECT_NE(std::string(e.what()).find("sign-in needed"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Not authenticated"), std::string::npos) << e.what();
  }

  MonaiLabelBackend stale(authConfigFor(server.url()));
  stale.setSignInTokens({.accessToken = "old", .refreshToken = "also-old"});
  try {
    stale.info(progress);
    FAIL() << "no error";
  } catch (const core::ai::SignInRequired& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(server.url()), std::string::npos) << m;
    EXPECT_NE(m.find("sign-in needed"), std::string::npos) << m;
    EXPECT_NE(m.find("could not be renewed"), std::string::npos) << m;
  }
  EXPECT_TRUE(stale.signInTokens().empty()) << "a refused refresh token is forgotten";

  // A refresh token kept from an earlier run, with no access token: renewed on first use.
  MonaiLabelBackend first(authConfigFor(server.url()));
  const core::ai::SignInTokens kept = first.signIn("alice", "s3cret&=", progress);
  MonaiLabelBackend restored(authConfigFor(server.url()));
  core::ai::SignInTokens onlyRefresh;
  onlyRefresh.refreshToken = kept.refreshToken;
  restored.setSignInTokens(onlyRefresh);
  EXPECT_EQ(restored.info(progress).name, "Delineate built-in engine");
  EXPECT_FALSE(restored.signInTokens().accessToken.empty());
}

namespace {

// A JWT whose payload says it expires at `exp` (seconds since 1970); not signed.
std::string jwtExpiringAt(long long exp) {
  const std::string payload = R"({"sub": "alice", "exp": )" + std::to_string(exp) + "}";
  std::string b64 =
      core::base64Encode(reinterpret_cast<const std::uint8_t*>(payload.data()), payload.size());
  std::replace(b64.begin(), b64.end(), '+', '-');
  std::replace(b64.begin(), b64.end(), '/', '_');
  b64.erase(std::remove(b64.begin(), b64.end(), '='), b64.end());
  return "eyJhbGciOiJIUzI1NiJ9." + b64 + ".c2ln";
}

}  // namespace

// MONAI Label's own /auth/token answers only access_token and token_type (its response model
// drops Keycloak's refresh token and lifetimes), and a password its identity provider refuses
// as a bare 500. The client reads the token's expiry from the JWT and signs in again with the
// password before it runs out; a refused password reads as refused.
TEST(MonaiAuthClient, AServerThatGivesNoRefreshTokenIsSignedInToAgainBeforeTheTokenExpires) {
  const long long now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  std::atomic<int> grants{0};
  test::FaultServer server([&](const std::string& method, const std::string& path) {
    if (path == "/auth/") {
      return test::answer(200, "application/json", R"({"enabled": true, "client_id": "x"})");
    }
    if (path == "/auth/token" && method == "POST") {
      // The first token is within the renewal margin already; the next one lasts an hour.
      const long long exp = ++grants == 1 ? now + 10 : now + 3600;
      return test::answer(
          200, "application/json",
          R"({"access_token": ")" + jwtExpiringAt(exp) + R"(", "token_type": "bearer"})");
    }
    return test::answer(200, "application/json", annotation::LocalEngineBackend::infoJson().dump());
  });
  MonaiLabelBackend client(authConfigFor(server.url()));
  core::NullProgress progress;
  const core::ai::SignInTokens t = client.signIn("alice", "s3cret&=", progress);
  EXPECT_TRUE(t.refreshToken.empty());
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(t.expires.time_since_epoch()).count(),
            now + 10)
      << "the expiry read from the token";
  client.info(progress);
  EXPECT_EQ(grants.load(), 2) << "signed in again before the call";
  EXPECT_NE(client.signInTokens().accessToken, t.accessToken);

  test::FaultServer refusing([](const std::string&, const std::string& path) {
    if (path == "/auth/token") {
      return test::answer(500, "text/plain", "Internal Server Error");
    }
    return test::answer(200, "application/json", R"({"enabled": true})");
  });
  MonaiLabelBackend other(authConfigFor(refusing.url()));
  try {
    other.signIn("alice", "guess", progress);
    ADD_FAILURE() << "a refused password signed in";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("rejected the user name or password"), std::string::npos)
        << e.what();
  }
}
