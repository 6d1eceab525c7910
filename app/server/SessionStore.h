#pragma once
// Server-side sessions (docs/ai.md, "How the client talks to a server"): an uploaded image kept for
// a while so that each click's /infer sends only the clicks. Held in memory; thread-safe; expired
// sessions are dropped when touched.
#include <chrono>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/model/Volume.h"

namespace delineate::server {

class SessionStore {
 public:
  explicit SessionStore(std::chrono::seconds maxExpiry = std::chrono::seconds(3600));

  struct Session {
    std::string id;
    std::string name;  // the uploaded file's name
    core::VolumePtr image;
    std::chrono::system_clock::time_point created, lastAccess;
    std::chrono::seconds expiry{0};
  };

  // Keeps `image` (read from the uploaded `name`) for `expiry` (0 or more than the maximum:
  // the maximum). Returns the new session.
  Session create(core::VolumePtr image, const std::string& name, std::chrono::seconds expiry);
  // The session, its life extended; nullopt when unknown or expired.
  std::optional<Session> find(const std::string& id);
  bool remove(const std::string& id);
  std::size_t size();

  // The JSON MONAI Label answers for a session.
  static nlohmann::json toJson(const Session& s);

 private:
  void dropExpired();

  std::chrono::seconds maxExpiry_;
  std::mutex mutex_;
  std::map<std::string, Session> sessions_;
};

// A random RFC 4122 version-4 UUID string.
std::string makeUuid();

}  // namespace delineate::server
