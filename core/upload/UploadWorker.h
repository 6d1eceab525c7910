#pragma once
// Sends the queue's pending items to a datastore, exactly once each: for the image, then the label,
// it first asks the server what it holds (its stored info carries our SHA-256); only when the
// server does not hold these bytes are they sent, and after sending it is asked again to verify.
// A request that failed halfway — a reset connection, an answer lost after the server stored it —
// is therefore never repeated once the server has the data. Transient failures (connection
// errors, 408, 429, 5xx, a verification mismatch) are tried again after RetryPolicy's delay,
// honouring Retry-After; refusals a retry cannot fix (404, 413, 422, ...) fail the item with the
// server's message. 401/403 stop the run with the items still pending (sign in, then resume).
// Every state change is saved before the next request, so a killed process resumes where it
// stopped.
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/ai/AiBackend.h"
#include "core/jobs/ProgressSink.h"
#include "core/upload/RetryPolicy.h"
#include "core/upload/UploadQueue.h"

namespace delineate::core::upload {

struct UploadRunOptions {
  RetryPolicy retry;
  // Stop (items stay pending, to be resumed) when no item was delivered for this long while
  // some wait for a retry; nullopt: keep trying until every item is done or failed, or cancelled.
  std::optional<double> giveUpAfterSeconds;
  std::uint64_t seed = std::random_device{}();
  std::string clientId = "delineate";
};

struct UploadRunSummary {
  int delivered = 0;        // items that reached Done in this run
  int failed = 0;           // items that reached Failed in this run
  int pending = 0;          // left pending at the end (paused, given up, signed out, cancelled)
  int filesSent = 0;        // PUT requests that carried a file
  int filesAlreadyHeld = 0  // files the server held already (a lost answer, a resumed queue)
      ;
  int retries = 0;  // transient failures, each followed by a wait
  bool paused = false;
  std::string stoppedBecause;  // why pending items were left (empty: none left)
};

class UploadWorker {
 public:
  // Called after each saved change of an item (worker thread).
  using ItemChanged = std::function<void(const UploadItem&)>;
  // Called before each wait with the seconds to wait and why.
  using Waiting = std::function<void(double seconds, const std::string& reason)>;

  UploadWorker(UploadQueue& queue, ai::AiBackend& backend, UploadRunOptions options = {});

  void onItemChanged(ItemChanged callback) { itemChanged_ = std::move(callback); }
  void onWaiting(Waiting callback) { waiting_ = std::move(callback); }

  // Runs until nothing is pending, the queue is paused, the run gives up, or `progress` is
  // cancelled (then throws CancelledError; items stay pending). Throws Error(InvalidInput) when
  // another process is sending this queue.
  UploadRunSummary run(ProgressSink& progress);

 private:
  void deliver(UploadItem& item, ProgressSink& progress, UploadRunSummary& summary);
  bool serverHolds(const UploadItem& item, bool label, ProgressSink& progress);
  void sendFile(const UploadItem& item, bool label, ProgressSink& progress);
  // Sleeps `seconds`, waking to check for cancel and pause; false when paused meanwhile.
  bool sleepFor(double seconds, ProgressSink& progress);

  UploadQueue& queue_;
  ai::AiBackend& backend_;
  UploadRunOptions options_;
  std::mt19937_64 rng_;
  ItemChanged itemChanged_;
  Waiting waiting_;
};

}  // namespace delineate::core::upload
