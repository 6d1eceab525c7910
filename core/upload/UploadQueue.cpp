#include "core/upload/UploadQueue.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/Error.h"
#include "core/ai/VolumeBytes.h"
#include "core/io/AtomicFile.h"
#include "core/upload/FileDigest.h"
#include "core/upload/UnixTime.h"

namespace delineate::core::upload {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kItemFile = "item.json";
constexpr const char* kStagingPrefix = ".staging-";

json readJsonFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return nullptr;
  }
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str(), nullptr, false);
}

void createPrivateFolder(const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec || !fs::is_directory(folder)) {
    throw Error(ErrorKind::Io, folder.string(),
                "cannot create the upload queue folder: " +
                    (ec ? ec.message() : std::string("not a folder")));
  }
  fs::permissions(folder, fs::perms::owner_all, fs::perm_options::replace, ec);
}

// Moves `from` to `to` (a rename on one file system, else a copy; a copy that fails leaves
// nothing behind). Throws Error(Io) naming `to`.
void moveInto(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (!ec) {
    return;
  }
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    fs::remove(to, ec);
    throw Error(ErrorKind::Io, to.string(), "cannot stage the file (disk full?)");
  }
  fs::remove(from, ec);
}

std::string stagedName(const std::string& role, const fs::path& file) {
  const std::string ext = ai::fullExtension(file.filename().string());
  return role + (ext.empty() ? std::string(".nii.gz") : ext);
}

}  // namespace

UploadQueue::UploadQueue(fs::path folder) : folder_(std::move(folder)) {
  createPrivateFolder(folder_);
  createPrivateFolder(itemsFolder());
  removeLeftovers();
}

namespace {

// Whether the process that made a "<...>-<pid>-<n>" folder is gone (it can no longer finish it).
// Another process may be queueing into the same queue right now (the CLI while the app looks).
bool ownerGone(const std::string& name) {
  const auto last = name.rfind('-');
  const auto before =
      last == std::string::npos || last == 0 ? std::string::npos : name.rfind('-', last - 1);
  if (before == std::string::npos) {
    return true;
  }
  const pid_t pid =
      static_cast<pid_t>(std::atol(name.substr(before + 1, last - before - 1).c_str()));
  return pid <= 0 || (::kill(pid, 0) != 0 && errno == ESRCH);
}

}  // namespace

void UploadQueue::removeLeftovers() {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(itemsFolder(), ec)) {
    const std::string name = entry.path().filename().string();
    const bool staging = name.rfind(kStagingPrefix, 0) == 0;
    // An item folder without item.json is one whose removal a crash interrupted (remove() takes
    // item.json first; enqueue() renames whole folders in).
    if ((staging && ownerGone(name)) ||
        (!staging && entry.is_directory() && !fs::exists(entry.path() / kItemFile))) {
      std::error_code ignored;
      fs::remove_all(entry.path(), ignored);
    }
  }
  for (const auto& entry : fs::directory_iterator(folder_ / "incoming", ec)) {
    if (ownerGone(entry.path().filename().string())) {
      std::error_code ignored;
      fs::remove_all(entry.path(), ignored);
    }
  }
}

EnqueueOutcome UploadQueue::enqueue(UploadItem item, const fs::path& imageFile,
                                    const fs::path& labelFile) {
  if (item.id.empty() || item.id.find('/') != std::string::npos || item.id.front() == '.') {
    throw Error(ErrorKind::InvalidInput, item.id, "not a usable upload id");
  }
  item.image = {stagedName("image", imageFile), sha256OfFile(imageFile),
                static_cast<std::uint64_t>(fs::file_size(imageFile)), false};
  item.label = {};
  if (!labelFile.empty()) {
    item.label = {stagedName("label", labelFile), sha256OfFile(labelFile),
                  static_cast<std::uint64_t>(fs::file_size(labelFile)), false};
  }
  item.state = UploadState::Pending;
  item.attempts = 0;
  item.nextAttemptUnix = 0;
  item.lastError.clear();
  item.queuedUnix = nowUnix();
  item.doneUnix = 0;

  std::lock_guard lock(mutex_);
  const fs::path target = itemsFolder() / item.id;
  std::optional<UploadItem> existing;
  if (fs::exists(target / kItemFile)) {
    existing = itemFromJson(readJsonFile(target / kItemFile), (target / kItemFile).string());
  }
  std::error_code ec;
  if (existing && existing->image.sha256 == item.image.sha256 &&
      existing->label.sha256 == item.label.sha256 && existing->labelInfo == item.labelInfo &&
      existing->state != UploadState::Failed) {
    fs::remove(imageFile, ec);
    if (!labelFile.empty()) {
      fs::remove(labelFile, ec);
    }
    return EnqueueOutcome::Unchanged;
  }
  if (existing) {
    // What the server already holds and verified need not go again.
    item.image.stored = existing->image.stored && existing->image.sha256 == item.image.sha256;
    // A server may forget an image's labels when the image is put again (MONAI Label does):
    // a new image means its label goes again too.
    item.label.stored = item.image.stored && existing->label.stored &&
                        existing->label.sha256 == item.label.sha256 &&
                        existing->labelInfo == item.labelInfo;
  }

  static std::atomic<unsigned> counter{0};
  const fs::path staging =
      itemsFolder() / (kStagingPrefix + item.id + "-" + std::to_string(::getpid()) + "-" +
                       std::to_string(counter.fetch_add(1)));
  try {
    createPrivateFolder(staging);
    moveInto(imageFile, staging / item.image.name);
    if (!labelFile.empty()) {
      moveInto(labelFile, staging / item.label.name);
    }
    writeTextAtomically(staging / kItemFile, toJson(item).dump(2), "the upload item");
    if (existing) {
      // Swap the folders in one step: a crash leaves either the old item or the new one.
      if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0) {
        throw Error(ErrorKind::Io, target.string(),
                    std::string("cannot replace the queued item: ") + std::strerror(errno));
      }
    } else {
      fs::rename(staging, target);
    }
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(staging, ec);
    throw Error(ErrorKind::Io, target.string(), std::string("cannot queue: ") + e.what());
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
  fs::remove_all(staging, ec);  // the old item, after an exchange
  return existing ? EnqueueOutcome::Replaced : EnqueueOutcome::Added;
}

std::vector<UploadItem> UploadQueue::readItems() const {
  std::vector<UploadItem> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(itemsFolder(), ec)) {
    const fs::path file = entry.path() / kItemFile;
    if (entry.path().filename().string().front() == '.' || !fs::exists(file)) {
      continue;
    }
    try {
      out.push_back(itemFromJson(readJsonFile(file), file.string()));
    } catch (const Error&) {
      // An unreadable item.json cannot be written half (atomic writes); skip what is not ours.
    }
  }
  std::sort(out.begin(), out.end(), [](const UploadItem& a, const UploadItem& b) {
    return a.queuedUnix != b.queuedUnix ? a.queuedUnix < b.queuedUnix : a.id < b.id;
  });
  return out;
}

std::vector<UploadItem> UploadQueue::items() const {
  std::lock_guard lock(mutex_);
  return readItems();
}

std::optional<UploadItem> UploadQueue::item(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const fs::path file = itemsFolder() / id / kItemFile;
  if (id.empty() || id.front() == '.' || !fs::exists(file)) {
    return std::nullopt;
  }
  return itemFromJson(readJsonFile(file), file.string());
}

QueueCounts UploadQueue::counts() const {
  QueueCounts c;
  for (const UploadItem& i : items()) {
    switch (i.state) {
      case UploadState::Pending:
        ++c.pending;
        c.pendingBytes += (i.image.stored ? 0 : i.image.size) + (i.label.stored ? 0 : i.label.size);
        break;
      case UploadState::Done:
        ++c.done;
        break;
      case UploadState::Failed:
        ++c.failed;
        break;
    }
  }
  return c;
}

fs::path UploadQueue::filePath(const std::string& id, const std::string& name) const {
  return itemsFolder() / id / name;
}

void UploadQueue::save(const UploadItem& item) {
  std::lock_guard lock(mutex_);
  const fs::path folder = itemsFolder() / item.id;
  if (!fs::exists(folder / kItemFile)) {
    throw Error(ErrorKind::InvalidInput, item.id, "is no longer in the upload queue");
  }
  writeTextAtomically(folder / kItemFile, toJson(item).dump(2), "the upload item");
}

bool UploadQueue::remove(const std::string& id) {
  std::lock_guard lock(mutex_);
  const fs::path folder = itemsFolder() / id;
  if (id.empty() || id.front() == '.' || !fs::exists(folder / kItemFile)) {
    return false;
  }
  // item.json first: a crash in between leaves a folder without it, removed at the next open.
  std::error_code ec;
  fs::remove(folder / kItemFile, ec);
  fs::remove_all(folder, ec);
  return true;
}

int UploadQueue::retryFailed() {
  int n = 0;
  for (UploadItem i : items()) {
    if (i.state == UploadState::Failed) {
      i.state = UploadState::Pending;
      i.attempts = 0;
      i.nextAttemptUnix = 0;
      save(i);
      ++n;
    }
  }
  return n;
}

int UploadQueue::clearDone() {
  int n = 0;
  for (const UploadItem& i : items()) {
    if (i.state == UploadState::Done && remove(i.id)) {
      ++n;
    }
  }
  return n;
}

bool UploadQueue::paused() const {
  const json settings = readJsonFile(folder_ / "queue.json");
  return settings.is_object() && settings.value("paused", false);
}

void UploadQueue::setPaused(bool paused) {
  std::lock_guard lock(mutex_);
  writeTextAtomically(folder_ / "queue.json", json{{"paused", paused}}.dump(), "the queue state");
}

UploadQueue::SendLock::~SendLock() {
  ::flock(fd_, LOCK_UN);
  ::close(fd_);
}

std::unique_ptr<UploadQueue::SendLock> UploadQueue::tryLockForSending() const {
  const fs::path path = folder_ / "send.lock";
  const int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw Error(ErrorKind::Io, path.string(), std::string("cannot open: ") + std::strerror(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return nullptr;
  }
  return std::make_unique<SendLock>(fd);
}

}  // namespace delineate::core::upload

namespace delineate::core::upload {

std::filesystem::path defaultQueueFolder(const std::string& server) {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  const char* home = std::getenv("HOME");
  const fs::path base =
      xdg && *xdg ? fs::path(xdg) : fs::path(home && *home ? home : "/tmp") / ".local" / "share";
  std::string name;
  for (char c : server) {
    name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
  }
  return base / "delineate" / "upload" / (name.empty() ? std::string("default") : name);
}

}  // namespace delineate::core::upload
