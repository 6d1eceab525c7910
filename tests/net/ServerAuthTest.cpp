// delineate-server's optional sign-in over HTTP on 127.0.0.1, answered the way a MONAI Label 0.7+
// server answers (docs/ai.md, "Signing in"): off, /auth/ is an unknown route; on, the token grants,
// the 401s a client must tell apart (no token, a token the server no longer validates), the 403
// naming the missing role, and the refresh grant.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "AiTestSupport.h"
#include "app/server/AuthGate.h"
#include "core/ai/MonaiRequests.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpClient.h"

using namespace delineate;
using nlohmann::json;

namespace {

server::AuthOptions users(std::chrono::seconds lifetime = std::chrono::seconds(300)) {
  server::AuthOptions o;
  o.users = {{"alice", "wonder land", {server::kRoleUser, server::kRoleAnnotator}},
             {"bob", "builder", {server::kRoleUser}},
             {"root", "toor", {server::kRoleAdmin}}};
  o.tokenLifetime = lifetime;
  return o;
}

core::net::HttpResponse send(const std::string& method, const std::string& url,
                             const std::string& token = {}, const std::string& form = {}) {
  core::net::HttpRequest r;
  r.method = method;
  r.url = url;
  if (!token.empty()) {
    r.headers.emplace_back("Authorization", "Bearer " + token);
  }
  if (!form.empty()) {
    r.contentType = "application/x-www-form-urlencoded";
    r.body = form;
  }
  core::NullProgress progress;
  return core::net::makeHttpClient()->send(r, progress);
}

json body(const core::net::HttpResponse& r) {
  return json::parse(r.body, nullptr, false);
}

// The token answer of a password grant.
json signIn(const std::string& url, const std::string& user, const std::string& password) {
  const auto r = send("POST", url + "/auth/token", {},
                      "grant_type=password&username=" + core::ai::percentEncode(user) +
                          "&password=" + core::ai::percentEncode(password));
  EXPECT_EQ(r.status, 200) << r.body;
  return body(r);
}

}  // namespace

TEST(ServerAuth, OffTheAuthRoutesAreUnknownAndNothingNeedsAToken) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  const auto auth = send("GET", server.url() + "/auth/");
  EXPECT_EQ(auth.status, 404);
  EXPECT_EQ(body(auth), json({{"detail", "Not Found"}}));
  EXPECT_EQ(send("POST", server.url() + "/auth/token", {}, "username=a&password=b").status, 404);
  EXPECT_EQ(send("GET", server.url() + "/info/").status, 200);
}

TEST(ServerAuth, OnTheServerSaysSoAndGrantsTokensForTheRightPassword) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, users());
  const auto probe = send("GET", server.url() + "/auth/");
  ASSERT_EQ(probe.status, 200);
  EXPECT_EQ(body(probe)["enabled"], true);
  EXPECT_EQ(body(probe)["client_id"], "delineate");
  EXPECT_EQ(body(probe)["realm"], server.url() + "/auth");

  // The password has a space: the form encoding must survive the round trip.
  const json t = signIn(server.url(), "alice", "wonder land");
  EXPECT_EQ(t["token_type"], "bearer");
  EXPECT_EQ(t["expires_in"], 300);
  EXPECT_EQ(t["refresh_expires_in"], 1800);
  ASSERT_TRUE(t["access_token"].is_string());
  ASSERT_TRUE(t["refresh_token"].is_string());
  EXPECT_NE(t["access_token"], t["refresh_token"]);
  EXPECT_GE(t["access_token"].get<std::string>().size(), 32u);

  // grant_type is optional (OAuth2PasswordRequestForm).
  EXPECT_EQ(send("POST", server.url() + "/auth/token", {}, "username=bob&password=builder").status,
            200);

  const auto valid = send("GET", server.url() + "/auth/token/valid", t["access_token"]);
  ASSERT_EQ(valid.status, 200) << valid.body;
  EXPECT_EQ(body(valid)["username"], "alice");
  EXPECT_EQ(body(valid)["roles"], json({server::kRoleUser, server::kRoleAnnotator}));
  EXPECT_EQ(send("GET", server.url() + "/info/", t["access_token"]).status, 200);
}

TEST(ServerAuth, AWrongPasswordOrUnknownUserIs401) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, users());
  for (const std::string form : {"username=alice&password=wonderland", "username=eve&password=x"}) {
    const auto r = send("POST", server.url() + "/auth/token", {}, form);
    EXPECT_EQ(r.status, 401) << form;
    EXPECT_EQ(body(r), json({{"detail", "Invalid username or password"}}));
  }
  EXPECT_EQ(send("POST", server.url() + "/auth/token", {}, "username=alice").status, 422);
}

TEST(ServerAuth, WithoutATokenOrWithABadOneEveryRouteIs401WithTheRightDetail) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, users());
  for (const std::string path : {"/info/", "/datastore/", "/train/", "/session/x"}) {
    const auto none = send("GET", server.url() + path);
    EXPECT_EQ(none.status, 401) << path;
    EXPECT_EQ(body(none), json({{"detail", "Not authenticated"}})) << path;
    EXPECT_EQ(none.header("www-authenticate"), "Bearer") << path;
    const auto bad = send("GET", server.url() + path, "not-a-token");
    EXPECT_EQ(bad.status, 401) << path;
    EXPECT_EQ(body(bad), json({{"detail", "Could not validate credentials"}})) << path;
  }
  EXPECT_EQ(send("GET", server.url() + "/auth/token/valid").status, 401);
}

TEST(ServerAuth, AMissingRoleIs403NamingTheRole) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, users());
  const std::string bob = signIn(server.url(), "bob", "builder")["access_token"];
  const std::string root = signIn(server.url(), "root", "toor")["access_token"];
  EXPECT_EQ(send("GET", server.url() + "/datastore/", bob).status, 200);
  const auto label = send("PUT", server.url() + "/datastore/label?image=x", bob);
  EXPECT_EQ(label.status, 403);
  // The real server's words (monailabel/endpoints/user/auth.py).
  EXPECT_EQ(body(label)["detail"],
            "Role \"monailabel-annotator\" is required to perform this action");
  const auto stop = send("DELETE", server.url() + "/train/", bob);
  EXPECT_EQ(stop.status, 403);
  EXPECT_EQ(body(stop)["detail"], "Role \"monailabel-admin\" is required to perform this action");
  // Roles do not imply each other: an admin-only account may not read /info/.
  EXPECT_EQ(send("GET", server.url() + "/info/", root).status, 403);
  EXPECT_EQ(send("DELETE", server.url() + "/train/", root).status, 200);
}

TEST(ServerAuth, RoleTableFollowsTheProtocol) {
  using server::AuthGate;
  const std::string user = server::kRoleUser, annotator = server::kRoleAnnotator,
                    admin = server::kRoleAdmin;
  EXPECT_EQ(AuthGate::requiredRole("GET", "/info/"), user);
  EXPECT_EQ(AuthGate::requiredRole("POST", "/infer/m"), user);
  EXPECT_EQ(AuthGate::requiredRole("PUT", "/session/"), user);
  EXPECT_EQ(AuthGate::requiredRole("POST", "/activelearning/random"), user);
  EXPECT_EQ(AuthGate::requiredRole("GET", "/train/"), user);
  EXPECT_EQ(AuthGate::requiredRole("GET", "/datastore/label"), user);
  EXPECT_EQ(AuthGate::requiredRole("PUT", "/datastore/image"), annotator);
  EXPECT_EQ(AuthGate::requiredRole("PUT", "/datastore/label"), annotator);
  EXPECT_EQ(AuthGate::requiredRole("POST", "/train/m"), admin);
  EXPECT_EQ(AuthGate::requiredRole("DELETE", "/train/"), admin);
  EXPECT_EQ(AuthGate::requiredRole("DELETE", "/datastore/image"), admin);
  EXPECT_EQ(AuthGate::requiredRole("DELETE", "/datastore/label"), admin);
}

TEST(ServerAuth, AnExpiredTokenIs401AndTheRefreshTokenGetsANewOne) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, users(std::chrono::seconds(1)));
  const json first = signIn(server.url(), "bob", "builder");
  EXPECT_EQ(first["expires_in"], 1);
  EXPECT_EQ(send("GET", server.url() + "/info/", first["access_token"]).status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1300));
  const auto expired = send("GET", server.url() + "/info/", first["access_token"]);
  EXPECT_EQ(expired.status, 401);
  EXPECT_EQ(body(expired)["detail"], "Could not validate credentials");

  const auto renewed =
      send("POST", server.url() + "/auth/token", {},
           "grant_type=refresh_token&refresh_token=" + first["refresh_token"].get<std::string>());
  ASSERT_EQ(renewed.status, 200) << renewed.body;
  const std::string fresh = body(renewed)["access_token"];
  EXPECT_NE(fresh, first["access_token"]);
  EXPECT_EQ(send("GET", server.url() + "/info/", fresh).status, 200);
  EXPECT_EQ(send("GET", server.url() + "/auth/token/valid", fresh).status, 200);

  const auto bogus =
      send("POST", server.url() + "/auth/token", {}, "grant_type=refresh_token&refresh_token=nope");
  EXPECT_EQ(bogus.status, 401);
  // An access token is no refresh token.
  EXPECT_EQ(send("POST", server.url() + "/auth/token", {},
                 "grant_type=refresh_token&refresh_token=" + fresh)
                .status,
            401);
}
