#include "app/server/SessionStore.h"

#include <cstdio>
#include <random>

namespace delineate::server {

std::string makeUuid() {
  static std::mutex mutex;
  static std::mt19937_64 rng{std::random_device{}()};
  std::uint64_t a, b;
  {
    std::lock_guard lock(mutex);
    a = rng();
    b = rng();
  }
  a = (a & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;  // version 4
  b = (b & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;  // variant 10
  char text[37];
  std::snprintf(text, sizeof(text), "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xffff),
                static_cast<unsigned>(b >> 48),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return text;
}

SessionStore::SessionStore(std::chrono::seconds maxExpiry) : maxExpiry_(maxExpiry) {}

SessionStore::Session SessionStore::create(core::VolumePtr image, const std::string& name,
                                           std::chrono::seconds expiry) {
  Session s;
  s.id = makeUuid();
  s.name = name;
  s.image = std::move(image);
  s.created = s.lastAccess = std::chrono::system_clock::now();
  s.expiry = expiry.count() <= 0 || expiry > maxExpiry_ ? maxExpiry_ : expiry;
  std::lock_guard lock(mutex_);
  dropExpired();
  sessions_[s.id] = s;
  return s;
}

std::optional<SessionStore::Session> SessionStore::find(const std::string& id) {
  std::lock_guard lock(mutex_);
  dropExpired();
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) {
    return std::nullopt;
  }
  it->second.lastAccess = std::chrono::system_clock::now();
  return it->second;
}

bool SessionStore::remove(const std::string& id) {
  std::lock_guard lock(mutex_);
  return sessions_.erase(id) > 0;
}

std::size_t SessionStore::size() {
  std::lock_guard lock(mutex_);
  dropExpired();
  return sessions_.size();
}

void SessionStore::dropExpired() {
  const auto now = std::chrono::system_clock::now();
  std::erase_if(sessions_, [now](const auto& entry) {
    return now - entry.second.lastAccess > entry.second.expiry;
  });
}

nlohmann::json SessionStore::toJson(const Session& s) {
  const auto seconds = [](std::chrono::system_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
  };
  return {{"session_id", s.id},
          {"session_info",
           {{"name", s.name},
            {"image", s.name},
            {"meta", nlohmann::json::object()},
            {"create_ts", seconds(s.created)},
            {"last_access_ts", seconds(s.lastAccess)},
            {"expiry", s.expiry.count()}}}};
}

}  // namespace delineate::server
