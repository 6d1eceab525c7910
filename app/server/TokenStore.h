#pragma once
// The tokens delineate-server hands out when auth is on (docs/ai.md, "Signing in"): opaque random
// strings kept in memory, each mapped to the user it was issued to and its expiry. A real MONAI
// Label server proxies to Keycloak and gets signed JWTs; clients treat both as opaque, so nothing
// here needs to be a JWT. Tokens die with the process. Thread-safe.
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace delineate::server {

struct AuthUser {
  std::string username;
  std::string password;
  std::vector<std::string> roles;
};

struct IssuedTokens {
  std::string accessToken;
  std::string refreshToken;
  std::chrono::seconds accessLifetime{0};
  std::chrono::seconds refreshLifetime{0};
};

class TokenStore {
 public:
  TokenStore(std::chrono::seconds accessLifetime, std::chrono::seconds refreshLifetime);

  // A new access + refresh token pair for `user`.
  IssuedTokens issue(const AuthUser& user);
  // The user an unexpired access token was issued to.
  std::optional<AuthUser> userOf(const std::string& accessToken);
  // A new pair for the user of an unexpired refresh token; nullopt when it is unknown or
  // expired. The old refresh token stays valid until it expires (as Keycloak does by default).
  std::optional<IssuedTokens> refresh(const std::string& refreshToken);

 private:
  using Clock = std::chrono::steady_clock;
  struct Entry {
    AuthUser user;
    Clock::time_point expires;
  };
  IssuedTokens issueLocked(const AuthUser& user);
  void dropExpiredLocked();

  std::chrono::seconds accessLifetime_;
  std::chrono::seconds refreshLifetime_;
  std::mutex mutex_;
  std::map<std::string, Entry> access_;
  std::map<std::string, Entry> refresh_;
};

// 32 random bytes from the system's entropy source, hex-encoded.
std::string randomToken();

}  // namespace delineate::server
