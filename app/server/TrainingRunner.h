#pragma once
// Training for delineate-server (docs/retraining.md, "Annotator loop"): runs the command the server
// was started with
// (`--train-command`) in a shell, in its own folder under the datastore, with the labelled pairs
// in dataset.json; one run at a time (a second start answers "busy", 429). The command sees
//   DELINEATE_TRAIN_DATASET  path of dataset.json ([{"image": path, "label": path}, ...])
//   DELINEATE_TRAIN_MODEL    the model name
//   DELINEATE_TRAIN_CONFIG   the request's JSON body
// and writes what it likes to its folder; its output goes to train.log there.
//
// Which data trained a model: before the command starts, the run's training pairs are hashed
// into a dataset snapshot id (core/dataset: SHA-256 of each file's path under the datastore and
// content, the same id `delineate-cli dataset` gives the same files), kept in the run's status
// (`dataset_snapshot`) and, with every file's digest, in `dataset_snapshot.json` in the run's
// folder. A snapshot id the client names in its request (`dataset_snapshot`, e.g. the snapshot
// its labels were uploaded from) is kept in the status's `request` beside it.
//
// Progress: the command may keep `train_stats.json` in its folder up to date, in the shape of
// MONAI Label's train stats, e.g. after each epoch
//   {"current_epoch": 2, "total_epochs": 10, "best_metric": 0.81,
//    "train": {"metrics": {"train_loss": 0.4}, "key_metric_name": "train_loss"},
//    "eval": {"metrics": {"val_mean_dice": 0.81}, "key_metric_name": "val_mean_dice",
//             "best_metric": 0.81, "best_metric_epoch": 2},
//    "history": [{"epoch": 1, "train_loss": 0.6, "val_mean_dice": 0.7}, {"epoch": 2, ...}]}
// All keys are optional; GET /info/ adds "epoch" (what MONAI Label's clients read) from
// "current_epoch" when the command wrote only that; `history` (one object of metrics per epoch,
// oldest first) is ours, for the client's plot. The server answers it as GET /info/
// `train_stats[<model>]`. Writing it by rename (write train_stats.json.part, then mv) is best, but
// a half-written or garbled file is tolerated: the last whole one read stays the answer.
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
  // Whether a run is going on (a stopped one is not, though its command may still be exiting).
  bool running();
  // {"id", "status": SUBMITTED|RUNNING|DONE|ERROR|STOPPED, "start_ts", "end_ts", "exit_code",
  //  "request", "details": the last 20 lines of train.log (never empty)}; {} before the first run.
  nlohmann::json status();
  // Stops a running command (SIGTERM to its process group); its status is STOPPED from then on.
  // False when none runs.
  bool stop();
  // The latest run's train_stats.json (see above) as last read whole; {} before any.
  nlohmann::json stats();

 private:
  void wait(pid_t pid);

  std::string command_;
  std::filesystem::path folder_;
  std::filesystem::path runFolder_;  // of the latest run; empty before the first
  nlohmann::json stats_ = nlohmann::json::object();
  std::mutex mutex_;
  nlohmann::json status_ = nlohmann::json::object();
  pid_t pid_ = -1;
  bool stopping_ = false;
  std::thread waiter_;
};

}  // namespace delineate::server
