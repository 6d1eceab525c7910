#pragma once
// Signing in to a MONAI Label server that has auth on (docs/ai.md, "Signing in"), Qt-free and
// thread-safe: the probe (GET /auth/: 404 or anything but {"enabled": true} means off, as Slicer
// reads it), the OAuth2 password grant and the refresh grant on POST /auth/token, and the token
// state the app keeps between runs (the refresh token, in the system keychain). Tokens are opaque
// here except for a JWT's expiry ("exp", read unverified) when the answer gives no expires_in:
// MONAI Label's own /auth/token answers only access_token and token_type. Against such a server
// there is no refresh token, so the password of the last sign-in is kept in memory (never
// stored) and the password grant is repeated when the token is due.
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "core/Error.h"
#include "core/ai/SignIn.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpClient.h"

namespace delineate::plugins {

using MonaiTokens = core::ai::SignInTokens;
using core::ai::SignInRequired;

class MonaiAuth {
 public:
  // A token this close to its expiry is renewed before the next call rather than after a 401.
  static constexpr std::chrono::seconds kRefreshMargin{30};

  MonaiAuth(std::string serverUrl, core::net::HttpClient& http,
            std::chrono::milliseconds connectTimeout, std::chrono::milliseconds timeout);

  // GET /auth/: whether the server wants signing in. Asked once; network failures throw.
  bool enabled(core::ProgressSink& progress);
  // The password grant. Throws core::Error naming the server; a rejected password says so.
  MonaiTokens login(const std::string& user, const std::string& password,
                    core::ProgressSink& progress);
  // Renews the tokens with the refresh token unless someone else did since `stale` (the access
  // token a failed call carried) was current. Throws SignInRequired when there is no refresh
  // token or the server refused it (the tokens are then forgotten).
  void renew(const std::string& stale, core::ProgressSink& progress);
  // Renews first when the access token is missing or within kRefreshMargin of its expiry and a
  // refresh token is there.
  void renewIfDue(core::ProgressSink& progress);

  // "Authorization: Bearer <access token>" added when there is one; returns the token added.
  std::string authorize(core::net::HttpRequest& request) const;

  MonaiTokens tokens() const;
  // E.g. the refresh token kept from an earlier run (access token empty: renewed on first use).
  void setTokens(MonaiTokens tokens);
  // Forgets the tokens and the password kept for signing in again.
  void clear();

 private:
  core::net::HttpResponse post(const std::string& form, core::ProgressSink& progress);
  MonaiTokens parseTokens(const core::net::HttpResponse& r) const;

  std::string url_;
  core::net::HttpClient& http_;
  std::chrono::milliseconds connectTimeout_;
  std::chrono::milliseconds timeout_;
  mutable std::mutex mutex_;
  MonaiTokens tokens_;
  // User name and password of the last sign-in, kept only while the server gives no refresh
  // token (the only way to renew then).
  std::optional<std::pair<std::string, std::string>> relogin_;
  std::optional<bool> enabled_;
  std::mutex renewing_;  // one renewal at a time; the others then use its result
};

}  // namespace delineate::plugins
