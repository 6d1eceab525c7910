// The MONAI Label client's sign-in against delineate-server with auth on, in this process on
// 127.0.0.1: the probe, the password grant, the bearer token on every call, the renewal before a
// short-lived token expires and after the server stops validating one (the call then sent again,
// once), and the errors a user sees: a rejected password, and "sign-in needed" naming the server
// when the renewal fails.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "AiTestSupport.h"
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
