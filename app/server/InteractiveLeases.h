#pragma once
// The sessions of nnInteractive clients: each held by a lease token from POST /claim, at most
// `maxSessions` at once, and reaped when idle too long (no prompt or image) or when the client
// stopped showing signs of life (not even a heartbeat). A reaped or released token is unknown
// for ever after (410). Reaping happens on each lookup, so it never lags the timeouts.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/ai/Prompt.h"
#include "core/model/Volume.h"

namespace delineate::server {

struct LeaseOptions {
  int maxSessions = 3;
  double idleTimeoutSeconds = 600;
  double livenessTimeoutSeconds = 60;
};

// One client's state: its image, the target buffer the client mirrors, the prompts since the
// last reset, and one level of undo. Guarded by `lock` (one request at a time per session).
struct InteractiveSession {
  std::mutex lock;
  core::VolumePtr image;
  std::vector<std::int64_t> imageShape;  // [C, a0, a1, a2] as uploaded
  std::vector<std::uint8_t> target;      // 0/1 per voxel, C order over [a0, a1, a2]
  std::string targetDtype;               // the client's buffer dtype, "" before set_target_buffer
  std::vector<core::ai::Prompt> prompts;
  std::optional<std::vector<std::uint8_t>> initialSeg;  // from add_initial_seg_interaction
  bool doAutozoom = true;
  // The state just before the latest prompt (single-level undo).
  struct Snapshot {
    std::vector<std::uint8_t> target;
    std::vector<core::ai::Prompt> prompts;
    std::optional<std::vector<std::uint8_t>> initialSeg;
  };
  std::optional<Snapshot> undo;
};

class InteractiveLeases {
 public:
  using Clock = std::chrono::steady_clock;

  explicit InteractiveLeases(LeaseOptions options) : options_(options) {}

  const LeaseOptions& options() const { return options_; }
  // A new session and its token (32 lowercase hex), or nullopt when all slots are taken.
  std::optional<std::string> claim();
  // Frees the slot; unknown tokens are fine (idempotent).
  void release(const std::string& token);
  // The live session of `token` (reaping first), or null. `active` refreshes the idle clock
  // too; `seen` only the liveness one (heartbeat); neither for a status query.
  enum class Touch { None, Seen, Active };
  std::shared_ptr<InteractiveSession> find(const std::string& token, Touch touch);
  // Seconds left on the idle clock of `token`, nullopt when it is not live.
  std::optional<double> idleSecondsLeft(const std::string& token);
  std::size_t size();

 private:
  struct Entry {
    std::shared_ptr<InteractiveSession> session;
    Clock::time_point lastActive;
    Clock::time_point lastSeen;
  };
  void reapLocked(Clock::time_point now);

  LeaseOptions options_;
  std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace delineate::server
