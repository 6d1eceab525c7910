#include "app/server/TokenStore.h"

#include <random>

namespace delineate::server {

std::string randomToken() {
  // std::random_device reads the kernel's entropy (getrandom) on Linux with libstdc++, so these
  // are not guessable from earlier tokens, unlike a seeded mt19937.
  static thread_local std::random_device device;
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (int i = 0; i < 8; ++i) {
    std::uint32_t word = device();
    for (int b = 0; b < 8; ++b, word >>= 4) {
      out += hex[word & 0xF];
    }
  }
  return out;
}

TokenStore::TokenStore(std::chrono::seconds accessLifetime, std::chrono::seconds refreshLifetime)
    : accessLifetime_(accessLifetime), refreshLifetime_(refreshLifetime) {}

IssuedTokens TokenStore::issue(const AuthUser& user) {
  std::lock_guard lock(mutex_);
  dropExpiredLocked();
  return issueLocked(user);
}

IssuedTokens TokenStore::issueLocked(const AuthUser& user) {
  IssuedTokens t{randomToken(), randomToken(), accessLifetime_, refreshLifetime_};
  const Clock::time_point now = Clock::now();
  access_[t.accessToken] = {user, now + accessLifetime_};
  refresh_[t.refreshToken] = {user, now + refreshLifetime_};
  return t;
}

std::optional<AuthUser> TokenStore::userOf(const std::string& accessToken) {
  std::lock_guard lock(mutex_);
  const auto it = access_.find(accessToken);
  if (it == access_.end() || it->second.expires <= Clock::now()) {
    return std::nullopt;
  }
  return it->second.user;
}

std::optional<IssuedTokens> TokenStore::refresh(const std::string& refreshToken) {
  std::lock_guard lock(mutex_);
  dropExpiredLocked();
  const auto it = refresh_.find(refreshToken);
  if (it == refresh_.end()) {
    return std::nullopt;
  }
  const AuthUser user = it->second.user;
  return issueLocked(user);
}

void TokenStore::dropExpiredLocked() {
  const Clock::time_point now = Clock::now();
  for (auto* tokens : {&access_, &refresh_}) {
    std::erase_if(*tokens, [now](const auto& e) { return e.second.expires <= now; });
  }
}

}  // namespace delineate::server
