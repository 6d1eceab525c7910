#pragma once
// The persistent upload queue: one folder per case under `<folder>/items/<id>/` holding the exact
// bytes to send and item.json (state, checksums, attempts), each write atomic. It survives an app
// crash, a reboot and a network outage: a case is in the queue once its item.json exists, and a
// folder left half-staged by a crash is removed when the queue is opened. Enqueueing a case
// already there with the same bytes changes nothing; with other bytes it replaces what is not yet
// delivered. Only one process sends at a time (SendLock, an flock the kernel drops when the
// process dies); any number may look.
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/upload/UploadItem.h"

namespace delineate::core::upload {

struct QueueCounts {
  int pending = 0;
  int done = 0;
  int failed = 0;
  std::uint64_t pendingBytes = 0;
};

enum class EnqueueOutcome {
  Added,
  Unchanged,  // the same bytes are already queued or delivered
  Replaced,   // other bytes under the same id: they will be sent
};

class UploadQueue {
 public:
  // Opens (creating) the queue in `folder`. Throws Error(Io) naming the folder.
  explicit UploadQueue(std::filesystem::path folder);

  const std::filesystem::path& folder() const { return folder_; }

  // Stages a case: `imageFile` (and `labelFile`, may be empty) are moved into the item's folder —
  // they must be files the caller made for this (de-identified, encoded) on the same file system,
  // or they are copied. Checksums are computed here. `item` supplies id, label tag/info and
  // source; its state fields are reset. Throws Error(Io) naming the file on a full disk; the queue
  // is then as before.
  EnqueueOutcome enqueue(UploadItem item, const std::filesystem::path& imageFile,
                         const std::filesystem::path& labelFile);

  std::vector<UploadItem> items() const;
  std::optional<UploadItem> item(const std::string& id) const;
  QueueCounts counts() const;
  // Path of a staged file of an item.
  std::filesystem::path filePath(const std::string& id, const std::string& name) const;

  // Records an item's new state (atomic; the item must be in the queue).
  void save(const UploadItem& item);
  // Removes an item and its files (cancel); false when it was not there.
  bool remove(const std::string& id);
  // Failed items become pending again, their attempts reset; returns how many.
  int retryFailed();
  // Removes delivered items; returns how many.
  int clearDone();

  // Paused queues send nothing until resumed; kept across restarts.
  bool paused() const;
  void setPaused(bool paused);

  // Held while sending; nullptr when another process (or object) holds it.
  class SendLock {
   public:
    explicit SendLock(int fd) : fd_(fd) {}
    ~SendLock();
    SendLock(const SendLock&) = delete;
    SendLock& operator=(const SendLock&) = delete;

   private:
    int fd_;
  };
  std::unique_ptr<SendLock> tryLockForSending() const;

 private:
  std::filesystem::path itemsFolder() const { return folder_ / "items"; }
  std::vector<UploadItem> readItems() const;
  void removeLeftovers();

  std::filesystem::path folder_;
  mutable std::mutex mutex_;
};

}  // namespace delineate::core::upload

namespace delineate::core::upload {

// Where the queue for `server` lives by default: $XDG_DATA_HOME (else ~/.local/share)
// /delineate/upload/<the server's scheme, host and port as a file name>.
std::filesystem::path defaultQueueFolder(const std::string& server);

}  // namespace delineate::core::upload
