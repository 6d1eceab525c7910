#include "app/server/TrainingRunner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>

#include "app/server/SessionStore.h"
#include "core/Error.h"
#include "core/ai/MonaiInfo.h"
#include "core/dataset/DatasetStore.h"
#include "core/upload/FileDigest.h"

extern char** environ;

namespace delineate::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string timestamp() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  return buf;
}

}  // namespace

TrainingRunner::TrainingRunner(std::string command, fs::path folder)
    : command_(std::move(command)), folder_(std::move(folder)) {}

TrainingRunner::~TrainingRunner() {
  stop();
  if (waiter_.joinable()) {
    waiter_.join();
  }
}

bool TrainingRunner::running() {
  std::lock_guard lock(mutex_);
  return pid_ > 0 && !stopping_;  // a stopped run may take a moment to exit
}

namespace {

// The last `count` lines of the text file `path` (at most its last 64 KiB are read).
json lastLines(const fs::path& path, std::size_t count) {
  std::ifstream in(path, std::ios::binary);
  std::string text;
  if (in) {
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    const std::streamoff from = std::max<std::streamoff>(0, size - 65536);
    in.seekg(from);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (end > at) {
      lines.push_back(text.substr(at, end - at));
    }
    at = end + 1;
  }
  json out = json::array();
  for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i) {
    out.push_back(lines[i]);
  }
  return out;
}

}  // namespace

json TrainingRunner::status() {
  std::lock_guard lock(mutex_);
  if (status_.empty()) {
    return status_;
  }
  // MONAI Label's tasks carry the last lines of their output; its clients show the last one.
  json out = status_;
  json details = lastLines(runFolder_ / "train.log", 20);
  if (details.empty()) {
    details.push_back("training " + out.value("status", std::string("SUBMITTED")));
  }
  out["details"] = std::move(details);
  return out;
}

namespace {

// The training pairs' files as a dataset snapshot (paths under the datastore: "images/a.nii.gz",
// "labels/final/a.nii.gz"), written to dataset_snapshot.json in `dir`; its id.
std::string recordSnapshot(const json& pairs, const fs::path& dir) {
  std::vector<core::dataset::SnapshotFile> files;
  for (const json& pair : pairs.is_array() ? pairs : json::array()) {
    const fs::path image = pair.value("image", "");
    const fs::path root = image.parent_path().parent_path();  // <datastore>/images/NAME
    for (const char* key : {"image", "label"}) {
      const fs::path file = pair.value(key, "");
      std::error_code ec;
      const std::uintmax_t bytes = fs::file_size(file, ec);
      if (ec) {
        continue;
      }
      files.push_back({file.lexically_relative(root).generic_string(),
                       core::upload::sha256OfFile(file), bytes});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });
  const std::string id = core::dataset::snapshotId(files);
  json list = json::array();
  for (const auto& f : files) {
    list.push_back({{"path", f.path}, {"sha256", f.sha256}, {"bytes", f.bytes}});
  }
  std::ofstream(dir / "dataset_snapshot.json") << json{{"id", id}, {"files", list}}.dump(1);
  return id;
}

}  // namespace

json TrainingRunner::start(const std::string& model, const json& config, const json& dataset) {
  std::lock_guard lock(mutex_);
  if (pid_ > 0) {
    return json();
  }
  if (waiter_.joinable()) {
    waiter_.join();
  }
  const std::string id = makeUuid();
  const fs::path dir = folder_ / id;
  fs::create_directories(dir);
  runFolder_ = dir;
  stats_ = json::object();
  std::ofstream(dir / "dataset.json") << dataset.dump(2);
  const std::string snapshot = recordSnapshot(dataset, dir);
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    env.emplace_back(*e);
  }
  env.push_back("DELINEATE_TRAIN_DATASET=" + (dir / "dataset.json").string());
  env.push_back("DELINEATE_TRAIN_MODEL=" + model);
  env.push_back("DELINEATE_TRAIN_CONFIG=" + config.dump());
  std::vector<char*> envp;
  for (std::string& s : env) {
    envp.push_back(s.data());
  }
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = (dir / "train.log").string();
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::string shell = "/bin/sh", flag = "-c", cmd = command_;
  char* argv[] = {shell.data(), flag.data(), cmd.data(), nullptr};
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  json request = config.is_object() ? config : json::object();
  request["model"] = model;
  status_ = {{"id", id},
             {"status", rc == 0 ? "RUNNING" : "ERROR"},
             {"start_ts", timestamp()},
             {"request", request},
             {"dataset_snapshot", snapshot},
             {"folder", dir.string()}};
  if (rc != 0) {
    status_["end_ts"] = timestamp();
    status_["error"] = std::string("cannot start the training command: ") + std::strerror(rc);
    return status_;
  }
  pid_ = pid;
  stopping_ = false;
  waiter_ = std::thread([this, pid] { wait(pid); });
  json answer = status_;
  answer["status"] = "SUBMITTED";
  return answer;
}

void TrainingRunner::wait(pid_t pid) {
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  std::lock_guard lock(mutex_);
  pid_ = -1;
  status_["end_ts"] = timestamp();
  if (stopping_) {
    status_["status"] = "STOPPED";
  } else if (WIFEXITED(st)) {
    status_["exit_code"] = WEXITSTATUS(st);
    status_["status"] = WEXITSTATUS(st) == 0 ? "DONE" : "ERROR";
  } else {
    status_["status"] = "ERROR";
    status_["signal"] = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  }
}

json TrainingRunner::stats() {
  // Small, and read only when a client asks (GET /info/): no watcher needed.
  constexpr std::uintmax_t kMaxStatsBytes = 4 << 20;
  std::lock_guard lock(mutex_);
  if (runFolder_.empty()) {
    return stats_;
  }
  const fs::path file = runFolder_ / "train_stats.json";
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec || size == 0 || size > kMaxStatsBytes) {
    return stats_;
  }
  std::ifstream in(file, std::ios::binary);
  std::string text(static_cast<std::size_t>(size), '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(text.size()))) {
    return stats_;  // shrank while being rewritten
  }
  try {
    json parsed = core::ai::parseServerJson(text, "train_stats.json");
    if (parsed.is_object()) {
      stats_ = std::move(parsed);
    }
  } catch (const core::Error&) {
    // Half-written (the command is writing it now) or not JSON: keep the last whole one.
  }
  return stats_;
}

bool TrainingRunner::stop() {
  std::lock_guard lock(mutex_);
  if (pid_ <= 0 || stopping_) {
    return false;
  }
  stopping_ = true;
  ::kill(-pid_, SIGTERM);
  // Stopped as far as a client can tell from now on (the waiter then records the same).
  status_["status"] = "STOPPED";
  status_["end_ts"] = timestamp();
  return true;
}

}  // namespace delineate::server
