#pragma once
// delineate-server's optional authentication (docs/ai.md, "Signing in"), off unless --auth-users is
// given. With it on, the server answers the /auth/ routes a MONAI Label 0.7+ server registers
//   GET  /auth/             {"enabled": true, "client_id", "realm"}
//   POST /auth/token        form username=&password= (OAuth2 password grant) or
//                           grant_type=refresh_token&refresh_token= -> access + refresh token
//   GET  /auth/token/valid  the signed-in user
// and every other route needs `Authorization: Bearer <token>` of a user holding the route's role,
// with the real server's answers: 401 "Not authenticated" (no token), 401 "Could not validate
// credentials" (unknown or expired), 403 'Role "..." is required to perform this action'.
// Users come from a JSON file; a real server delegates this to Keycloak, which we do not need
// for a team server or for testing the client's sign-in.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/server/TokenStore.h"
#include "core/net/HttpServer.h"

namespace delineate::server {

struct AuthOptions {
  std::vector<AuthUser> users;
  std::chrono::seconds tokenLifetime{300};
  std::chrono::seconds refreshLifetime{1800};
  std::string clientId = "delineate";
};

// The role names of MONAI Label's default settings (MONAI_LABEL_AUTH_ROLE_*).
inline constexpr const char* kRoleUser = "monailabel-user";
inline constexpr const char* kRoleAnnotator = "monailabel-annotator";
inline constexpr const char* kRoleAdmin = "monailabel-admin";

// Reads {"users": [{"username", "password", "roles": [...]}, ...]}. Throws core::Error (Io when
// unreadable, InvalidInput when malformed) naming the file.
std::vector<AuthUser> readAuthUsers(const std::filesystem::path& file);

class AuthGate {
 public:
  explicit AuthGate(AuthOptions options);

  // The answer for an /auth/ route, or the refusal of a request that may not pass; nullopt
  // when the request may go on to its route.
  std::optional<core::net::HttpResponse> check(const core::net::ServerRequest& request);

  // The role a route needs; roles do not imply each other (an admin-only account cannot run
  // inference), as on the real server.
  static const char* requiredRole(const std::string& method, const std::string& path);

 private:
  core::net::HttpResponse authRoute(const core::net::ServerRequest& request);
  core::net::HttpResponse token(const core::net::ServerRequest& request);
  // The user of the request's bearer token, or the 401 to answer.
  std::optional<AuthUser> user(const core::net::ServerRequest& request,
                               core::net::HttpResponse& refusal);

  AuthOptions options_;
  TokenStore tokens_;
};

}  // namespace delineate::server
