#include "app/server/InteractiveLeases.h"

#include "app/server/TokenStore.h"

namespace delineate::server {

namespace {

double seconds(InteractiveLeases::Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

void InteractiveLeases::reapLocked(Clock::time_point now) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    const bool idle = seconds(now - it->second.lastActive) > options_.idleTimeoutSeconds;
    const bool dead = options_.livenessTimeoutSeconds > 0 &&
                      seconds(now - it->second.lastSeen) > options_.livenessTimeoutSeconds;
    it = idle || dead ? entries_.erase(it) : std::next(it);
  }
}

std::optional<std::string> InteractiveLeases::claim() {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  reapLocked(now);
  if (static_cast<int>(entries_.size()) >= options_.maxSessions) {
    return std::nullopt;
  }
  const std::string token = randomToken().substr(0, 32);
  entries_[token] = {std::make_shared<InteractiveSession>(), now, now};
  return token;
}

void InteractiveLeases::release(const std::string& token) {
  std::lock_guard lock(mutex_);
  entries_.erase(token);
}

std::shared_ptr<InteractiveSession> InteractiveLeases::find(const std::string& token, Touch touch) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  reapLocked(now);
  const auto it = entries_.find(token);
  if (it == entries_.end()) {
    return nullptr;
  }
  if (touch != Touch::None) {
    it->second.lastSeen = now;
  }
  if (touch == Touch::Active) {
    it->second.lastActive = now;
  }
  return it->second.session;
}

std::optional<double> InteractiveLeases::idleSecondsLeft(const std::string& token) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  reapLocked(now);
  const auto it = entries_.find(token);
  if (it == entries_.end()) {
    return std::nullopt;
  }
  return options_.idleTimeoutSeconds - seconds(now - it->second.lastActive);
}

std::size_t InteractiveLeases::size() {
  std::lock_guard lock(mutex_);
  reapLocked(Clock::now());
  return entries_.size();
}

}  // namespace delineate::server
