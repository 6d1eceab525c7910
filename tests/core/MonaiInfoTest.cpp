#include "core/ai/MonaiInfo.h"

#include <gtest/gtest.h>

#include <string>

#include "core/Error.h"

using namespace delineate::core;
using namespace delineate::core::ai;

namespace {

// docs/ai-protocol.md, "/info/": with the three example models and the other top-level sections
// filled in.
const char* kRadiologyInfo = R"json({
  "name": "MONAILabel - Radiology (0.8.1)",
  "description": "DeepLearning models for radiology",
  "version": "0.8.1",
  "labels": {"spleen": 1, "liver": 2, "background": 0},
  "models": {
    "segmentation_spleen": {"type": "segmentation", "labels": {"spleen": 1, "liver": 2},
                            "dimension": 3, "description": "A pre-trained model for spleen",
                            "config": {"device": ["cpu"], "largest_cc": false,
                                       "roi_size": [96, 96, 96], "sw_overlap": 0.25}},
    "deepedit": {"type": "deepedit", "labels": {"spleen": 1, "liver": 2, "background": 0},
                 "dimension": 3, "description": "DeepEdit", "config": {}},
    "deepgrow_3d": {"type": "deepgrow", "labels": [], "dimension": 3,
                    "description": "Deepgrow 3D"},
    "deepgrow_2d": {"type": "deepgrow", "labels": [], "dimension": 2},
    "Histogram+GraphCut": {"type": "scribbles", "labels": ["spleen"], "dimension": 3},
    "vista3d": {"type": "vista3d", "labels": {"liver": 1, "kidney": 5, "spleen": 3}},
    "classify": {"type": "classification", "labels": ["a", "b"], "dimension": 2}
  },
  "trainers": {
    "segmentation_spleen": {"description": "Train spleen",
                            "config": {"max_epochs": 50, "tracking": ["mlflow", "None"],
                                       "multi_gpu": true}}
  },
  "strategies": {"random": {"description": "Random"}, "first": {"description": "First"}},
  "scoring": {"dice": {"description": "Dice"}},
  "train_stats": {"segmentation_spleen": {"total_epochs": 50, "best_metric": 0.91}},
  "datastore": {"total": 4, "completed": 2, "label_tags": {"final": 2, "original": 3}}
})json";

std::string infoErrorOf(const std::string& body) {
  try {
    parseMonaiInfo(body, "http://localhost:8000");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    EXPECT_EQ(e.where(), "http://localhost:8000");
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(ServerInfo, ReadsTheAppAndItsModels) {
  const ServerInfo info = parseMonaiInfo(kRadiologyInfo);
  EXPECT_EQ(info.name, "MONAILabel - Radiology (0.8.1)");
  EXPECT_EQ(info.version, "0.8.1");
  EXPECT_EQ(info.description, "DeepLearning models for radiology");
  ASSERT_EQ(info.labels.size(), 3u);
  EXPECT_EQ(info.labels[0], (ModelLabel{"background", 0, true}));
  ASSERT_EQ(info.models.size(), 7u);

  const ModelInfo* spleen = info.findModel("segmentation_spleen");
  ASSERT_NE(spleen, nullptr);
  EXPECT_EQ(spleen->type, "segmentation");
  EXPECT_EQ(spleen->dimension, 3);
  EXPECT_EQ(spleen->description, "A pre-trained model for spleen");
  ASSERT_EQ(spleen->labels.size(), 2u);
  EXPECT_EQ(spleen->labels[0], (ModelLabel{"spleen", 1, false}));
  EXPECT_EQ(spleen->labels[1], (ModelLabel{"liver", 2, false}));

  EXPECT_EQ(info.findModel("deepgrow_2d")->dimension, 2);
  EXPECT_TRUE(info.findModel("deepgrow_3d")->labels.empty());
  EXPECT_EQ(info.findModel("nope"), nullptr);
}

TEST(ServerInfo, DictLabelsAreSortedByValueWithBackgroundKeptAndFlagged) {
  const ServerInfo info = parseMonaiInfo(kRadiologyInfo);
  const auto& deepedit = info.findModel("deepedit")->labels;
  ASSERT_EQ(deepedit.size(), 3u);
  EXPECT_EQ(deepedit[0], (ModelLabel{"background", 0, true}));
  EXPECT_EQ(deepedit[1], (ModelLabel{"spleen", 1, false}));
  EXPECT_EQ(deepedit[2], (ModelLabel{"liver", 2, false}));
  const auto& vista = info.findModel("vista3d")->labels;
  ASSERT_EQ(vista.size(), 3u);
  EXPECT_EQ(vista[0].name, "liver");
  EXPECT_EQ(vista[1], (ModelLabel{"spleen", 3, false}));
  EXPECT_EQ(vista[2], (ModelLabel{"kidney", 5, false}));
}

TEST(ServerInfo, ListLabelsTakePositionPlusOne) {
  const auto labels = parseMonaiLabels(nlohmann::json::parse(R"(["spleen", 7, "liver"])"));
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_EQ(labels[0], (ModelLabel{"spleen", 1, false}));
  EXPECT_EQ(labels[1], (ModelLabel{"liver", 3, false}));
  const auto named = parseMonaiLabels(nlohmann::json::parse(R"(["background", "tumour"])"));
  EXPECT_TRUE(named[0].background);  // named background, though its value is 1
  EXPECT_FALSE(named[1].background);
  // Values that are not integers are skipped; integral floats and digit strings are accepted.
  const auto odd = parseMonaiLabels(
      nlohmann::json::parse(R"({"a": 1.0, "b": "2", "c": 2.5, "d": null, "e": 1e30, "f": [1]})"));
  ASSERT_EQ(odd.size(), 2u);
  EXPECT_EQ(odd[0], (ModelLabel{"a", 1, false}));
  EXPECT_EQ(odd[1], (ModelLabel{"b", 2, false}));
  EXPECT_TRUE(parseMonaiLabels(nlohmann::json(5)).empty());
}

TEST(ServerInfo, GroupsModelsForTheUser) {
  const ServerInfo info = parseMonaiInfo(kRadiologyInfo);
  const auto names = [&](ModelGroup g) {
    std::vector<std::string> out;
    for (const ModelInfo* m : info.modelsIn(g)) {
      out.push_back(m->name);
    }
    return out;
  };
  EXPECT_EQ(names(ModelGroup::Automatic),
            (std::vector<std::string>{"segmentation_spleen", "vista3d"}));
  EXPECT_EQ(names(ModelGroup::Deepgrow), (std::vector<std::string>{"deepgrow_2d", "deepgrow_3d"}));
  EXPECT_EQ(names(ModelGroup::Deepedit), (std::vector<std::string>{"deepedit"}));
  EXPECT_EQ(names(ModelGroup::Scribbles), (std::vector<std::string>{"Histogram+GraphCut"}));
  EXPECT_EQ(names(ModelGroup::Others), (std::vector<std::string>{"classify"}));
  EXPECT_EQ(modelGroup("Segmentation"), ModelGroup::Automatic);
  EXPECT_EQ(modelGroup(""), ModelGroup::Automatic);
  EXPECT_EQ(modelGroup("detection"), ModelGroup::Others);
  EXPECT_EQ(modelGroup("DEXTR3D"), ModelGroup::ExtremePoints);
  EXPECT_STREQ(toString(ModelGroup::Deepedit), "deepedit");
}

TEST(ServerInfo, ConfigOptionsKeepDefaultsAndChoices) {
  const ServerInfo info = parseMonaiInfo(kRadiologyInfo);
  const auto& config = info.findModel("segmentation_spleen")->config;
  ASSERT_EQ(config.size(), 4u);  // key order
  EXPECT_EQ(config[0].key, "device");
  EXPECT_EQ(config[0].defaultValue, "cpu");
  EXPECT_EQ(config[0].choices.size(), 1u);
  EXPECT_EQ(config[1].key, "largest_cc");
  EXPECT_TRUE(config[1].isCheckbox());
  EXPECT_EQ(config[1].defaultValue, false);
  // A list is always "choices": roi_size [96, 96, 96] offers 96 (as Slicer reads it).
  EXPECT_EQ(config[2].key, "roi_size");
  EXPECT_EQ(config[2].defaultValue, 96);
  EXPECT_EQ(config[3].defaultValue, 0.25);
  EXPECT_FALSE(config[3].isCheckbox());

  ASSERT_EQ(info.trainers.size(), 1u);
  EXPECT_EQ(info.trainers[0].name, "segmentation_spleen");
  EXPECT_EQ(info.trainers[0].description, "Train spleen");
  ASSERT_EQ(info.trainers[0].config.size(), 3u);
  EXPECT_EQ(info.trainers[0].config[2].key, "tracking");
  EXPECT_EQ(info.trainers[0].config[2].defaultValue, "mlflow");
}

TEST(ServerInfo, StrategiesScoringAndDatastore) {
  const ServerInfo info = parseMonaiInfo(kRadiologyInfo);
  ASSERT_EQ(info.strategies.size(), 2u);
  EXPECT_EQ(info.strategies[0].name, "first");
  EXPECT_EQ(info.strategies[1].description, "Random");
  ASSERT_EQ(info.scoring.size(), 1u);
  ASSERT_TRUE(info.datastore.has_value());
  EXPECT_EQ(info.datastore->total, 4);
  EXPECT_EQ(info.datastore->completed, 2);
  ASSERT_EQ(info.datastore->labelTags.size(), 2u);
  EXPECT_EQ(info.datastore->labelTags[0], (std::pair<std::string, long long>{"final", 2}));
  EXPECT_EQ(info.trainStats["segmentation_spleen"]["total_epochs"], 50);
  EXPECT_EQ(info.raw["version"], "0.8.1");
}

TEST(ServerInfo, MissingAndOddFieldsAreTolerated) {
  const ServerInfo empty = parseMonaiInfo("{}");
  EXPECT_TRUE(empty.name.empty());
  EXPECT_TRUE(empty.models.empty());
  EXPECT_FALSE(empty.datastore.has_value());

  const ServerInfo odd = parseMonaiInfo(R"({
    "name": 7, "version": null, "labels": "spleen",
    "models": {"m": {"type": 3, "dimension": "x", "labels": {"a": -1}, "config": []},
               "n": null, "o": {"dimension": 2.0, "extra": {"nested": true}}},
    "trainers": [], "strategies": ["random", 3], "datastore": {"total": "many"}})");
  EXPECT_EQ(odd.name, "7");
  EXPECT_TRUE(odd.version.empty());
  EXPECT_TRUE(odd.labels.empty());
  ASSERT_EQ(odd.models.size(), 3u);
  EXPECT_EQ(odd.models[0].type, "3");
  EXPECT_EQ(odd.models[0].dimension, 3);
  EXPECT_EQ(odd.models[0].labels[0].value, -1);
  EXPECT_TRUE(odd.models[0].config.empty());
  EXPECT_EQ(odd.models[1].name, "n");
  EXPECT_EQ(modelGroup(odd.models[1].type), ModelGroup::Automatic);
  EXPECT_EQ(odd.models[2].dimension, 2);
  ASSERT_EQ(odd.strategies.size(), 1u);
  EXPECT_EQ(odd.strategies[0].name, "random");
  EXPECT_EQ(odd.datastore->total, 0);
}

TEST(ServerInfo, AnswersThatAreNotAnObjectNameTheProblem) {
  EXPECT_NE(infoErrorOf("[1, 2]").find("GET /info/ is a JSON array, not an object"),
            std::string::npos);
  EXPECT_NE(infoErrorOf("\"ok\"").find("is a JSON string"), std::string::npos);
  EXPECT_NE(infoErrorOf("<html><body>Swagger UI</body></html>")
                .find("GET /info/ is not JSON (it starts with '<html><body>Swagger"),
            std::string::npos);
  EXPECT_NE(infoErrorOf("").find("is not JSON (it is empty)"), std::string::npos);
  EXPECT_NE(infoErrorOf(R"({"name": "cut)").find("is not JSON"), std::string::npos);
  EXPECT_NE(infoErrorOf(std::string(100000, '[')).find("nests JSON deeper than"),
            std::string::npos);
}

TEST(ServerInfo, TrainingProgressOfEachTrainer) {
  // MONAI Label's stats after the second of ten epochs, with validation, and delineate-server's
  // per-epoch history.
  const ServerInfo info = parseMonaiInfo(R"({"train_stats": {
    "segmentation_spleen": {"rank": 0, "current_epoch": 2, "current_iteration": 8,
      "total_epochs": 10, "total_iterations": 40, "epoch": 2, "start_ts": 1700000000,
      "total_time": "0:00:31", "best_metric": 0.81,
      "train": {"metrics": {"train_loss": 0.42, "train_dice": 0.7},
                "key_metric_name": "train_dice", "best_metric": 0.7, "best_metric_epoch": 2},
      "eval": {"metrics": {"val_mean_dice": 0.81}, "key_metric_name": "val_mean_dice",
               "best_metric": 0.81, "best_metric_epoch": 1},
      "history": [{"epoch": 1, "train_loss": 0.6, "val_mean_dice": 0.81},
                  {"epoch": 2, "train_loss": 0.42, "val_mean_dice": 0.8}]},
    "deepedit": {}}})");
  ASSERT_EQ(info.trainerStats.size(), 2u);
  const TrainerStats* spleen = info.findTrainStats("segmentation_spleen");
  ASSERT_NE(spleen, nullptr);
  EXPECT_FALSE(spleen->empty());
  EXPECT_EQ(spleen->currentEpoch, 2);
  EXPECT_EQ(spleen->totalEpochs, 10);
  EXPECT_DOUBLE_EQ(spleen->fractionDone().value_or(-1), 0.2);
  EXPECT_EQ(spleen->bestMetric, 0.81);
  EXPECT_EQ(spleen->keyMetricName, "val_mean_dice");  // validation, as the best metric is
  EXPECT_EQ(spleen->bestMetricEpoch, 1);
  EXPECT_EQ(spleen->metric("train_loss"), 0.42);
  EXPECT_EQ(spleen->metric("train_dice"), 0.7);
  EXPECT_EQ(spleen->metric("val_mean_dice"), 0.81);
  EXPECT_FALSE(spleen->metric("rank").has_value());
  ASSERT_EQ(spleen->history.size(), 2u);
  EXPECT_EQ(spleen->history[1].epoch, 2);
  EXPECT_EQ(spleen->history[1].metrics,
            (TrainerMetrics{{"train_loss", 0.42}, {"val_mean_dice", 0.8}}));

  const TrainerStats* idle = info.findTrainStats("deepedit");
  ASSERT_NE(idle, nullptr);
  EXPECT_TRUE(idle->empty());
  EXPECT_EQ(idle->currentEpoch, 0);
  EXPECT_FALSE(idle->fractionDone().has_value());
  EXPECT_FALSE(idle->bestMetric.has_value());
  EXPECT_EQ(info.findTrainStats("nobody"), nullptr);
}

TEST(ServerInfo, TrainingProgressWithoutValidationOrHistory) {
  const ServerInfo info = parseMonaiInfo(R"({"train_stats": {"t": {
    "epoch": 3, "total_epochs": 4,
    "train": {"metrics": {"train_dice": 0.5}, "key_metric_name": "train_dice",
              "best_metric": 0.55, "best_metric_epoch": 2}}}})");
  const TrainerStats* t = info.findTrainStats("t");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->currentEpoch, 3);  // `epoch` when `current_epoch` is absent
  EXPECT_EQ(t->keyMetricName, "train_dice");
  EXPECT_EQ(t->bestMetric, 0.55);
  EXPECT_EQ(t->bestMetricEpoch, 2);
  EXPECT_TRUE(t->history.empty());
}

TEST(ServerInfo, OddTrainingProgressIsReadAsFarAsItMakesSense) {
  const ServerInfo info = parseMonaiInfo(R"({"train_stats": {
    "a": {"current_epoch": "2", "total_epochs": -5, "best_metric": "high",
          "train": {"metrics": {"loss": null, "dice": true, "ok": 0.5, "n": [1]},
                    "key_metric_name": 3, "best_metric_epoch": 1.5},
          "eval": [], "history": [7, {"train_loss": 0.9}, {"epoch": "x", "d": 0.1}, null,
                                  {"epoch": 1e300, "d": 0.2}]},
    "b": [1, 2], "c": null, "d": "running"}})");
  ASSERT_EQ(info.trainerStats.size(), 4u);
  const TrainerStats* a = info.findTrainStats("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->currentEpoch, 0);
  EXPECT_EQ(a->totalEpochs, 0);
  EXPECT_FALSE(a->bestMetric.has_value());
  EXPECT_FALSE(a->bestMetricEpoch.has_value());
  EXPECT_TRUE(a->keyMetricName.empty());
  EXPECT_EQ(a->metrics, (TrainerMetrics{{"ok", 0.5}}));
  ASSERT_EQ(a->history.size(), 3u);  // the objects; an entry without an epoch takes its place
  EXPECT_EQ(a->history[0].epoch, 2);
  EXPECT_EQ(a->history[0].metrics, (TrainerMetrics{{"train_loss", 0.9}}));
  EXPECT_EQ(a->history[1].epoch, 3);
  EXPECT_EQ(a->history[2].epoch, 5);
  for (const char* name : {"b", "c", "d"}) {
    ASSERT_NE(info.findTrainStats(name), nullptr) << name;
    EXPECT_TRUE(info.findTrainStats(name)->empty()) << name;
  }
  EXPECT_TRUE(parseMonaiInfo(R"({"train_stats": [1]})").trainerStats.empty());
}
