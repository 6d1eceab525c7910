#include "core/upload/UploadWorker.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/Error.h"
#include "core/ai/ServerAnswerError.h"
#include "core/ai/VolumeBytes.h"
#include "core/upload/UnixTime.h"

namespace delineate::core::upload {

using nlohmann::json;

namespace {

std::string readAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(ErrorKind::Io, path.string(), "the staged file is missing");
  }
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

const StagedFile& part(const UploadItem& item, bool label) {
  return label ? item.label : item.image;
}

}  // namespace

UploadWorker::UploadWorker(UploadQueue& queue, ai::AiBackend& backend, UploadRunOptions options)
    : queue_(queue), backend_(backend), options_(std::move(options)), rng_(options_.seed) {}

bool UploadWorker::serverHolds(const UploadItem& item, bool label, ProgressSink& progress) {
  const std::optional<json> info = label ? backend_.labelInfo(item.id, item.labelTag, progress)
                                         : backend_.imageInfo(item.id, progress);
  if (!info || !info->is_object() ||
      info->value("sha256", std::string()) != part(item, label).sha256) {
    return false;
  }
  // The label schema travels with the label: a label stored with other names is not ours.
  return !label || !info->contains("label_info") || (*info)["label_info"] == item.labelInfo;
}

void UploadWorker::sendFile(const UploadItem& item, bool label, ProgressSink& progress) {
  const StagedFile& f = part(item, label);
  ai::DatastoreFile file;
  file.filename = item.id + ai::fullExtension(f.name);
  file.bytes = readAll(queue_.filePath(item.id, f.name));
  if (file.bytes.size() != f.size) {
    throw Error(ErrorKind::Io, queue_.filePath(item.id, f.name).string(),
                "the staged file changed size since it was queued");
  }
  file.info = {{"sha256", f.sha256}, {"size", f.size}, {"client_id", options_.clientId}};
  if (label) {
    file.info["label_info"] = item.labelInfo;
    backend_.putLabelFile(item.id, item.labelTag, file, progress);
  } else {
    backend_.putImageFile(item.id, file, progress);
  }
}

void UploadWorker::deliver(UploadItem& item, ProgressSink& progress, UploadRunSummary& summary) {
  for (const bool label : {false, true}) {
    if ((label && !item.hasLabel()) || part(item, label).stored) {
      continue;
    }
    if (serverHolds(item, label, progress)) {
      ++summary.filesAlreadyHeld;
    } else {
      sendFile(item, label, progress);
      ++summary.filesSent;
      if (!serverHolds(item, label, progress)) {
        throw Error(ErrorKind::Network, backend_.displayName(),
                    "the server did not keep the " + std::string(label ? "label" : "image") +
                        " of " + item.id + " as sent (its checksum differs)");
      }
    }
    (label ? item.label : item.image).stored = true;
    queue_.save(item);
    if (itemChanged_) {
      itemChanged_(item);
    }
  }
}

bool UploadWorker::sleepFor(double seconds, ProgressSink& progress) {
  using namespace std::chrono;
  const auto until =
      steady_clock::now() + duration_cast<steady_clock::duration>(duration<double>(seconds));
  auto nextPauseCheck = steady_clock::now();
  while (steady_clock::now() < until) {
    progress.throwIfCancelled();
    if (steady_clock::now() >= nextPauseCheck) {
      if (queue_.paused()) {
        return false;
      }
      nextPauseCheck = steady_clock::now() + milliseconds(500);
    }
    const steady_clock::duration left = until - steady_clock::now();
    std::this_thread::sleep_for(std::min<steady_clock::duration>(milliseconds(50), left));
  }
  return true;
}

UploadRunSummary UploadWorker::run(ProgressSink& progress) {
  const auto lock = queue_.tryLockForSending();
  if (!lock) {
    throw Error(ErrorKind::InvalidInput, queue_.folder().string(),
                "another Delineate process is sending this upload queue");
  }
  UploadRunSummary summary;
  int total = 0;
  for (const UploadItem& i : queue_.items()) {
    total += i.state == UploadState::Pending ? 1 : 0;
  }
  double lastDelivery = nowUnix();
  while (true) {
    progress.throwIfCancelled();
    if (queue_.paused()) {
      summary.paused = true;
      summary.stoppedBecause = "the queue is paused";
      break;
    }
    std::vector<UploadItem> pending;
    for (UploadItem& i : queue_.items()) {
      if (i.state == UploadState::Pending) {
        pending.push_back(std::move(i));
      }
    }
    if (pending.empty()) {
      break;
    }
    UploadItem item = *std::min_element(pending.begin(), pending.end(),
                                        [](const UploadItem& a, const UploadItem& b) {
                                          return a.nextAttemptUnix < b.nextAttemptUnix;
                                        });
    const double wait = item.nextAttemptUnix - nowUnix();
    if (wait > 0) {
      if (options_.giveUpAfterSeconds &&
          nowUnix() + wait - lastDelivery > *options_.giveUpAfterSeconds) {
        summary.stoppedBecause = "no item was delivered for " +
                                 std::to_string(int(*options_.giveUpAfterSeconds)) +
                                 " s; last error: " + item.lastError;
        break;
      }
      if (waiting_) {
        waiting_(wait, item.lastError);
      }
      progress.report(total > 0 ? double(summary.delivered + summary.failed) / total : 0.0,
                      "waiting to try " + item.id + " again");
      if (!sleepFor(wait, progress)) {
        continue;  // paused meanwhile: the loop's head says so
      }
      continue;
    }
    const int position = summary.delivered + summary.failed;
    const double begin = total > 0 ? double(position) / total : 0.0;
    const double end = total > 0 ? std::min(1.0, double(position + 1) / total) : 1.0;
    progress.report(begin, "sending " + item.id + " (" + std::to_string(position + 1) + " of " +
                               std::to_string(std::max(total, position + 1)) + ")");
    SubProgress itemProgress(progress, begin, end);
    try {
      deliver(item, itemProgress, summary);
      item.state = UploadState::Done;
      item.doneUnix = nowUnix();
      item.lastError.clear();
      queue_.save(item);
      ++summary.delivered;
      lastDelivery = nowUnix();
    } catch (const CancelledError&) {
      throw;
    } catch (const ai::ServerAnswerError& e) {
      if (e.httpStatus() == 401 || e.httpStatus() == 403) {
        item.lastError = e.what();
        queue_.save(item);
        summary.stoppedBecause = e.what();
        break;
      }
      if (e.transient()) {
        item.attempts += 1;
        item.lastError = e.what();
        item.nextAttemptUnix = nowUnix() + retryDelaySeconds(options_.retry, item.attempts - 1,
                                                             e.retryAfterSeconds(), rng_);
        ++summary.retries;
      } else {
        item.state = UploadState::Failed;
        item.lastError = e.what();
        ++summary.failed;
      }
      queue_.save(item);
    } catch (const Error& e) {
      if (!queue_.item(item.id)) {
        continue;  // removed from the queue meanwhile (cancelled by the user)
      }
      if (e.kind() == ErrorKind::Io) {
        item.state = UploadState::Failed;  // the staged bytes are gone: queue the case again
        ++summary.failed;
      } else {
        item.attempts += 1;
        item.nextAttemptUnix =
            nowUnix() + retryDelaySeconds(options_.retry, item.attempts - 1, std::nullopt, rng_);
        ++summary.retries;
      }
      item.lastError = e.what();
      queue_.save(item);
    }
    if (itemChanged_) {
      itemChanged_(item);
    }
  }
  for (const UploadItem& i : queue_.items()) {
    summary.pending += i.state == UploadState::Pending ? 1 : 0;
  }
  progress.report(1.0, "upload finished");
  return summary;
}

}  // namespace delineate::core::upload
