#pragma once
// What an AI backend offers, whatever its protocol: its models (kind, labels, dimension,
// options), trainers, active-learning strategies, datastore counts and training progress. MONAI
// Label's GET /info/ gives all of it (MonaiInfo.h parses it); Clara AIAA's model list, the
// nnInteractive capabilities and the built-in engine fill what they have. The model kinds are
// MONAI Label's words ("segmentation", "deepgrow", "dextr3d", ...), which the other backends map
// onto; `raw` keeps the protocol's own answer.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ai/TrainerStats.h"

namespace delineate::core::ai {

// A segment name and the voxel value the server uses for it.
struct ModelLabel {
  std::string name;
  int value = 0;
  bool background = false;  // value 0 or named "background": not a segment to create

  bool operator==(const ModelLabel&) const = default;
};

// A per-model or per-trainer user option. A JSON list in `config` means "choices, the first is
// the default"; a bool is a checkbox; anything else a free value.
struct ModelOption {
  std::string key;
  nlohmann::json defaultValue;
  std::vector<nlohmann::json> choices;  // empty unless the server gave a list

  bool isCheckbox() const { return choices.empty() && defaultValue.is_boolean(); }
};

struct ModelInfo {
  std::string name;
  std::string type;  // as the server wrote it: "segmentation", "deepgrow", "deepedit", ...
  std::string description;
  std::vector<ModelLabel> labels;  // ordered by value
  int dimension = 3;               // 2: works on one slice at a time
  // The model's own version when the server gives one (Clara AIAA, nnInteractive, the built-in
  // engine, MONAI Label apps that put "version" in a model's info); empty otherwise.
  std::string version;
  std::vector<ModelOption> config;
};

struct TrainerInfo {
  std::string name;
  std::string description;
  std::vector<ModelOption> config;
  std::vector<ModelLabel> labels;
};

// An active-learning strategy or a scoring method.
struct ServerMethod {
  std::string name;
  std::string description;
};

struct DatastoreStats {
  long long total = 0;
  long long completed = 0;  // images with a `final` label
  std::vector<std::pair<std::string, long long>> labelTags;
};

// How a client offers a model: one click-free run, or an interactive tool of a kind.
enum class ModelGroup {
  Automatic,  // "segmentation" and types we do not know (bundle apps report their own strings)
  Deepgrow,
  Deepedit,
  Scribbles,
  ExtremePoints,  // "dextr3d": six extreme points of one structure (the built-in engine, Clara)
  Others,         // "annotation", "classification", "detection", "others": no voxel result to merge
};

const char* toString(ModelGroup group);
ModelGroup modelGroup(std::string_view type);

struct ServerInfo {
  std::string name;
  std::string version;
  std::string description;
  std::vector<ModelLabel> labels;  // app-level labels
  std::vector<ModelInfo> models;   // sorted by name
  std::vector<TrainerInfo> trainers;
  std::vector<ServerMethod> strategies;
  std::vector<ServerMethod> scoring;
  std::optional<DatastoreStats> datastore;
  nlohmann::json trainStats;               // `train_stats` as given (object per trainer), or null
  std::vector<TrainerStats> trainerStats;  // `train_stats` read, by trainer name
  nlohmann::json raw;                      // the whole answer

  const ModelInfo* findModel(std::string_view name) const;
  const TrainerStats* findTrainStats(std::string_view trainer) const;
  std::vector<const ModelInfo*> modelsIn(ModelGroup group) const;
};

}  // namespace delineate::core::ai
