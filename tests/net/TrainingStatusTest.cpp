// Training with live status: delineate-server runs an example training command that writes
// train_stats.json after each epoch (MONAI Label's shape plus a per-epoch history), and the
// client sees the epochs advance in GET /info/, the metrics of every epoch, and the run stop.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include "AiTestSupport.h"
#include "app/server/TrainingRunner.h"
#include "core/dataset/DatasetStore.h"
#include "core/jobs/ProgressSink.h"
#include "core/upload/FileDigest.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;
using delineate::plugins::MonaiLabelBackend;
using nlohmann::json;

namespace {

// An example training command: `max_epochs` "epochs" of EPOCH_SECONDS each (default 0.3), the
// validation Dice rising and the loss falling, train_stats.json replaced by rename after each.
const char* kExampleTraining = R"sh(
total=$(printf '%s' "$DELINEATE_TRAIN_CONFIG" | sed -n 's/.*"max_epochs":\([0-9][0-9]*\).*/\1/p')
total=${total:-3}
history=""
e=1
while [ "$e" -le "$total" ]; do
  sleep "${EPOCH_SECONDS:-0.3}"
  dice="0.$((50 + e * 40 / total))"
  loss="0.$((90 - e * 60 / total))"
  history="$history${history:+, }{\"epoch\": $e, \"train_loss\": $loss, \"val_mean_dice\": $dice}"
  printf '{"current_epoch": %d, "total_epochs": %d, "best_metric": %s, "train": {"metrics": {"train_loss": %s}, "key_metric_name": "train_loss"}, "eval": {"metrics": {"val_mean_dice": %s}, "key_metric_name": "val_mean_dice", "best_metric": %s, "best_metric_epoch": %d}, "history": [%s]}\n' \
    "$e" "$total" "$dice" "$loss" "$dice" "$dice" "$e" "$history" > train_stats.json.part
  mv train_stats.json.part train_stats.json
  e=$((e + 1))
done
)sh";

std::string exampleTrainingCommand(const test::TempDir& dir) {
  const std::filesystem::path script = dir / "train.sh";
  std::ofstream(script) << kExampleTraining;
  return "sh '" + script.string() + "'";
}

plugins::MonaiServerConfig configFor(const std::string& url) {
  plugins::MonaiServerConfig c;
  c.url = url;
  return c;
}

template <typename Done>
bool waitFor(Done done, std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace

TEST(TrainingStatus, EpochsAdvanceInInfoWithTheirMetrics) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", exampleTrainingCommand(dir));
  MonaiLabelBackend client(configFor(server.url()));
  core::NullProgress progress;
  const core::ai::ServerInfo before = client.info(progress);
  ASSERT_NE(before.findTrainStats("local_deepgrow"), nullptr);
  EXPECT_TRUE(before.findTrainStats("local_deepgrow")->empty());  // no run yet
  const auto started = client.startTraining("local_deepgrow", {{"max_epochs", 4}}, progress);
  EXPECT_TRUE(started.running);
  EXPECT_EQ(client.trainingStatus(progress).state, "RUNNING");

  std::set<int> epochsSeen;
  core::ai::TrainerStats last;
  ASSERT_TRUE(waitFor([&] {
    const core::ai::ServerInfo info = client.info(progress);
    if (const core::ai::TrainerStats* s = info.findTrainStats("local_deepgrow")) {
      if (!s->empty()) {
        epochsSeen.insert(s->currentEpoch);
        last = *s;
      }
    }
    return !client.trainingStatus(progress).running;
  })) << "the example training did not finish";
  EXPECT_EQ(client.trainingStatus(progress).state, "DONE");
  EXPECT_GE(epochsSeen.size(), 2u) << "the status did not advance while training ran";

  const core::ai::ServerInfo after = client.info(progress);
  const core::ai::TrainerStats* done = after.findTrainStats("local_deepgrow");
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(done->currentEpoch, 4);
  EXPECT_EQ(done->totalEpochs, 4);
  EXPECT_EQ(done->fractionDone(), 1.0);
  EXPECT_EQ(done->keyMetricName, "val_mean_dice");
  EXPECT_EQ(done->bestMetric, 0.9);
  EXPECT_EQ(done->bestMetricEpoch, 4);
  EXPECT_EQ(done->metric("train_loss"), 0.3);
  ASSERT_EQ(done->history.size(), 4u);
  for (int e = 1; e <= 4; ++e) {
    EXPECT_EQ(done->history[static_cast<std::size_t>(e - 1)].epoch, e);
  }
  EXPECT_EQ(done->history[0].metrics,
            (core::ai::TrainerMetrics{{"train_loss", 0.75}, {"val_mean_dice", 0.6}}));
}

TEST(TrainingStatus, AStoppedRunKeepsItsLastStats) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", exampleTrainingCommand(dir));
  MonaiLabelBackend client(configFor(server.url()));
  core::NullProgress progress;
  client.startTraining("local_deepgrow", {{"max_epochs", 50}}, progress);
  int epoch = 0;
  ASSERT_TRUE(waitFor([&] {
    const core::ai::ServerInfo info = client.info(progress);
    epoch = info.findTrainStats("local_deepgrow")->currentEpoch;
    return epoch >= 1;
  }));
  client.stopTraining(progress);
  ASSERT_TRUE(waitFor([&] { return !client.trainingStatus(progress).running; }));
  EXPECT_EQ(client.trainingStatus(progress).state, "STOPPED");
  const core::ai::ServerInfo info = client.info(progress);
  const core::ai::TrainerStats* stats = info.findTrainStats("local_deepgrow");
  ASSERT_NE(stats, nullptr);
  EXPECT_GE(stats->currentEpoch, epoch);
  EXPECT_LT(stats->currentEpoch, 50);
  EXPECT_EQ(stats->totalEpochs, 50);
}

TEST(TrainingStatus, AHalfWrittenStatsFileKeepsTheLastWholeOne) {
  test::TempDir dir;
  // Writes in place (no rename): a reader can catch the file cut short, or worse.
  server::TrainingRunner runner(
      "printf '{\"current_epoch\": 1, \"total_epochs\": 2}' > train_stats.json; sleep 1; "
      "printf '{\"current_epoch\": 2, \"tot' > train_stats.json; sleep 1; "
      "printf '\\000\\377garbage' > train_stats.json; touch garbled; sleep 30",
      dir / "train");
  EXPECT_EQ(runner.stats(), json::object());
  runner.start("m", json::object(), json::array());
  ASSERT_TRUE(waitFor([&] { return runner.stats().value("current_epoch", 0) == 1; }));
  const std::filesystem::path folder = runner.status().value("folder", "");
  ASSERT_TRUE(waitFor([&] { return std::filesystem::exists(folder / "garbled"); }));
  const json kept = runner.stats();
  EXPECT_EQ(kept.value("current_epoch", 0), 1);
  EXPECT_EQ(kept.value("total_epochs", 0), 2);
  runner.stop();
}

// Which data trained the model: the run's status names the snapshot of its training pairs (the
// id `delineate-cli dataset` gives those files) and keeps the one the client named; the run's
// folder lists every file with its digest.
TEST(TrainingStatus, ARunNamesTheSnapshotOfTheDataItTrainedOn) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", exampleTrainingCommand(dir));
  MonaiLabelBackend client(configFor(server.url()));
  core::NullProgress progress;
  const test::BallImage ball;
  const std::string id = client.uploadImage(*ball.image, "case1", progress);
  client.submitLabel(id, *ball.truth, "final", progress);
  const std::string named(64, 'a');
  const auto started = client.startTraining(
      "local_deepgrow", {{"max_epochs", 1}, {"dataset_snapshot", named}}, progress);
  const std::string snapshot = started.raw.value("dataset_snapshot", "");
  ASSERT_EQ(snapshot.size(), 64u) << started.raw.dump();
  EXPECT_EQ(started.raw["request"]["dataset_snapshot"], named);
  const std::filesystem::path runFolder = started.raw.value("folder", "");
  std::ifstream manifestFile(runFolder / "dataset_snapshot.json");
  const json manifest = json::parse(manifestFile);
  ASSERT_EQ(manifest["files"].size(), 2u) << "the image and its final label";
  std::vector<core::dataset::SnapshotFile> files;
  for (const json& f : manifest["files"]) {
    const std::filesystem::path onDisk = dir / "store" / f["path"].get<std::string>();
    ASSERT_TRUE(std::filesystem::exists(onDisk)) << onDisk;
    EXPECT_EQ(f["sha256"], core::upload::sha256OfFile(onDisk));
    files.push_back({f["path"], f["sha256"], f["bytes"]});
  }
  EXPECT_EQ(core::dataset::snapshotId(files), snapshot);
  ASSERT_TRUE(waitFor([&] { return !client.trainingStatus(progress).running; }));
  EXPECT_EQ(client.trainingStatus(progress).raw.value("dataset_snapshot", ""), snapshot)
      << "kept in the run's status after it ended";
}
