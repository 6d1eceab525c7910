#include "plugins/monai-label/MonaiAuth.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/Base64.h"
#include "core/ai/InferResponse.h"
#include "core/ai/MonaiInfo.h"
#include "core/ai/MonaiRequests.h"

namespace delineate::plugins {

namespace ai = core::ai;
namespace net = core::net;
using nlohmann::json;
using SystemClock = std::chrono::system_clock;

namespace {

// The form encoding of OAuth2 token requests (RFC 6749 §4.3): percent-encoded pairs.
std::string formField(const std::string& key, const std::string& value) {
  return ai::percentEncode(key) + "=" + ai::percentEncode(value);
}

}  // namespace

MonaiAuth::MonaiAuth(std::string serverUrl, net::HttpClient& http,
                     std::chrono::milliseconds connectTimeout, std::chrono::milliseconds timeout)
    : url_(std::move(serverUrl)), http_(http), connectTimeout_(connectTimeout), timeout_(timeout) {}

bool MonaiAuth::enabled(core::ProgressSink& progress) {
  {
    std::lock_guard lock(mutex_);
    if (enabled_) {
      return *enabled_;
    }
  }
  net::HttpRequest request;
  request.url = ai::joinUrl(url_, "auth/");
  request.connectTimeout = connectTimeout_;
  request.timeout = timeout_;
  net::HttpResponse r;
  try {
    r = http_.send(request, progress);
  } catch (const core::CancelledError&) {
    throw;
  } catch (const core::Error& e) {
    throw core::Error(core::ErrorKind::Network, url_, e.detail());
  }
  // A server without auth has no /auth/ route at all (404); anything else but a JSON object
  // saying enabled is read the same way, so a proxy's error page does not lock the user out.
  const json answer = r.ok() ? json::parse(r.body, nullptr, false) : json();
  const bool on = answer.is_object() && answer.value("enabled", false);
  std::lock_guard lock(mutex_);
  enabled_ = on;
  return on;
}

net::HttpResponse MonaiAuth::post(const std::string& form, core::ProgressSink& progress) {
  net::HttpRequest request;
  request.method = "POST";
  request.url = ai::joinUrl(url_, "auth/token");
  request.contentType = "application/x-www-form-urlencoded";
  request.body = form;
  request.connectTimeout = connectTimeout_;
  request.timeout = timeout_;
  try {
    return http_.send(request, progress);
  } catch (const core::CancelledError&) {
    throw;
  } catch (const core::Error& e) {
    throw core::Error(core::ErrorKind::Network, url_, e.detail());
  }
}

namespace {

// The "exp" claim (seconds since 1970) of a JWT's payload, read without checking the signature:
// only to know when to renew. nullopt when the token is not a JWT or has none.
std::optional<long long> jwtExpiry(const std::string& token) {
  const std::size_t first = token.find('.');
  const std::size_t second = first == std::string::npos ? first : token.find('.', first + 1);
  if (second == std::string::npos) {
    return std::nullopt;
  }
  std::string payload = token.substr(first + 1, second - first - 1);
  std::replace(payload.begin(), payload.end(), '-', '+');
  std::replace(payload.begin(), payload.end(), '_', '/');
  payload.append((4 - payload.size() % 4) % 4, '=');
  const auto bytes = core::base64Decode(payload);
  if (!bytes) {
    return std::nullopt;
  }
  const json claims = json::parse(bytes->begin(), bytes->end(), nullptr, false);
  if (!claims.is_object() || !claims.value("exp", json()).is_number()) {
    return std::nullopt;
  }
  return claims["exp"].get<long long>();
}

}  // namespace

MonaiTokens MonaiAuth::parseTokens(const net::HttpResponse& r) const {
  const json j = ai::parseServerJson(r.body, "the sign-in answer", url_);
  if (!j.is_object() || !j.value("access_token", json()).is_string()) {
    throw core::Error(core::ErrorKind::InvalidInput, url_,
                      "the sign-in answer has no access_token");
  }
  const SystemClock::time_point now = SystemClock::now();
  MonaiTokens t;
  t.accessToken = j["access_token"].get<std::string>();
  t.refreshToken = j.value("refresh_token", json()).is_string() ? j["refresh_token"] : "";
  if (j.value("expires_in", json()).is_number()) {
    t.expires = now + std::chrono::seconds(j["expires_in"].get<long long>());
  } else if (const std::optional<long long> exp = jwtExpiry(t.accessToken)) {
    t.expires = SystemClock::time_point(std::chrono::seconds(*exp));
  }
  if (j.value("refresh_expires_in", json()).is_number() && j["refresh_expires_in"] != 0) {
    t.refreshExpires = now + std::chrono::seconds(j["refresh_expires_in"].get<long long>());
  }
  return t;
}

MonaiTokens MonaiAuth::login(const std::string& user, const std::string& password,
                             core::ProgressSink& progress) {
  const net::HttpResponse r =
      post(formField("grant_type", "password") + "&" + formField("username", user) + "&" +
               formField("password", password),
           progress);
  if (!r.ok()) {
    const ai::ServerError e = ai::classifyServerAnswer(r.status, r.contentType(), r.body);
    // MONAI Label passes a password its identity provider refuses on as a bare 500.
    const std::string why =
        r.status == 401 || r.status == 400 ? "the server rejected the user name or password"
        : r.status == 500 ? "the server rejected the user name or password, or could not "
                            "reach its identity provider"
                          : e.message;
    throw core::Error(core::ErrorKind::Network, url_,
                      "signing in as '" + user + "' failed: " + why + " (HTTP " +
                          std::to_string(r.status) + (e.detail.empty() ? "" : ": " + e.detail) +
                          ")");
  }
  MonaiTokens t = parseTokens(r);
  setTokens(t);
  std::lock_guard lock(mutex_);
  if (t.refreshToken.empty()) {
    relogin_ = std::make_pair(user, password);
  } else {
    relogin_.reset();
  }
  return t;
}

void MonaiAuth::renew(const std::string& stale, core::ProgressSink& progress) {
  std::lock_guard renewing(renewing_);
  MonaiTokens current = tokens();
  if (current.accessToken != stale && !current.accessToken.empty()) {
    return;  // another call renewed them while this one waited
  }
  if (current.refreshToken.empty()) {
    std::optional<std::pair<std::string, std::string>> again;
    {
      std::lock_guard lock(mutex_);
      again = relogin_;
    }
    if (again) {  // a server without refresh tokens: the password grant once more
      try {
        login(again->first, again->second, progress);
        return;
      } catch (const core::CancelledError&) {
        throw;
      } catch (const core::Error& e) {
        clear();  // the password too
        throw SignInRequired(
            url_, "sign-in needed: signing in again failed (" + e.detail() + "); sign in again");
      }
    }
    throw SignInRequired(url_,
                         "sign-in needed: the server wants a valid token and there is "
                         "none to renew; sign in again");
  }
  const net::HttpResponse r = post(formField("grant_type", "refresh_token") + "&" +
                                       formField("refresh_token", current.refreshToken),
                                   progress);
  if (!r.ok()) {
    const ai::ServerError e = ai::classifyServerAnswer(r.status, r.contentType(), r.body);
    clear();
    throw SignInRequired(url_,
                         "sign-in needed: the sign-in has expired and could not be "
                         "renewed (HTTP " +
                             std::to_string(r.status) + (e.detail.empty() ? "" : ": " + e.detail) +
                             "); sign in again");
  }
  MonaiTokens fresh = parseTokens(r);
  if (fresh.refreshToken.empty()) {
    fresh.refreshToken = current.refreshToken;  // servers that do not rotate it may omit it
    fresh.refreshExpires = current.refreshExpires;
  }
  setTokens(fresh);
}

void MonaiAuth::renewIfDue(core::ProgressSink& progress) {
  const MonaiTokens t = tokens();
  bool canRelogin = false;
  {
    std::lock_guard lock(mutex_);
    canRelogin = relogin_.has_value();
  }
  if (t.refreshToken.empty() && !canRelogin) {
    return;
  }
  const bool known = t.expires != SystemClock::time_point{};
  if (t.accessToken.empty() || (known && SystemClock::now() + kRefreshMargin >= t.expires)) {
    renew(t.accessToken, progress);
  }
}

std::string MonaiAuth::authorize(net::HttpRequest& request) const {
  std::string token;
  {
    std::lock_guard lock(mutex_);
    token = tokens_.accessToken;
  }
  if (!token.empty()) {
    // "Bearer", whatever token_type said: FastAPI's OAuth2 scheme compares it case-insensitively
    // and Keycloak answers "Bearer" where others answer "bearer".
    request.headers.emplace_back("Authorization", "Bearer " + token);
  }
  return token;
}

MonaiTokens MonaiAuth::tokens() const {
  std::lock_guard lock(mutex_);
  return tokens_;
}

void MonaiAuth::setTokens(MonaiTokens tokens) {
  std::lock_guard lock(mutex_);
  tokens_ = std::move(tokens);
}

void MonaiAuth::clear() {
  std::lock_guard lock(mutex_);
  tokens_ = {};
  relogin_.reset();
}

}  // namespace delineate::plugins
