#pragma once
// Signing in to an AI server that asks for it (MONAI Label's /auth/, docs/ai.md, "Signing in"), in
// words every backend shares, so that the app signs in through core::ai::AiBackend without knowing
// which plugin made the backend. Tokens are opaque: only the server reads them.
#include <chrono>
#include <string>

#include "core/Error.h"

namespace delineate::core::ai {

struct SignInTokens {
  using TimePoint = std::chrono::system_clock::time_point;
  std::string accessToken;
  std::string refreshToken;    // empty: the server gave none; sign in again at expiry
  TimePoint expires{};         // of the access token; the epoch: not known
  TimePoint refreshExpires{};  // of the refresh token; the epoch: not known
  bool empty() const { return accessToken.empty() && refreshToken.empty(); }
};

// The server needs a (new) sign-in: no token, or the token expired and could not be renewed.
// `where` is the server.
class SignInRequired : public Error {
 public:
  SignInRequired(const std::string& server, const std::string& detail)
      : Error(ErrorKind::Network, server, detail) {}
};

}  // namespace delineate::core::ai
