#pragma once
// Training for delineate-server (PROTOCOLS §4.7): runs the command the server was started with
// (`--train-command`) in a shell, in its own folder under the datastore, with the labelled pairs
// in dataset.json; one run at a time (a second start answers "busy", 429). The command sees
//   DELINEATE_TRAIN_DATASET  path of dataset.json ([{"image": path, "label": path}, ...])
//   DELINEATE_TRAIN_MODEL    the model name
//   DELINEATE_TRAIN_CONFIG   the request's JSON body
// and writes what it likes to its folder; its output goes to train.log there.
#include <sys/types.h>

#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace delineate::server {

class TrainingRunner {
 public:
  TrainingRunner(std::string command, std::filesystem::path folder);
  ~TrainingRunner();  // stops a running command

  bool configured() const { return !command_.empty(); }
  // Starts a run; nullopt-like empty JSON when one is running already.
  nlohmann::json start(const std::string& model, const nlohmann::json& config,
                       const nlohmann::json& dataset);
  bool running();
  // {"id", "status": SUBMITTED|RUNNING|DONE|ERROR|STOPPED, "start_ts", "end_ts", "exit_code",
  //  "request"}; {} before the first run.
  nlohmann::json status();
  // Stops a running command (SIGTERM to its process group). False when none runs.
  bool stop();

 private:
  void wait(pid_t pid);

  std::string command_;
  std::filesystem::path folder_;
  std::mutex mutex_;
  nlohmann::json status_ = nlohmann::json::object();
  pid_t pid_ = -1;
  bool stopping_ = false;
  std::thread waiter_;
};

}  // namespace delineate::server
