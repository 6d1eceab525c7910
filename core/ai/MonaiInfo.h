#pragma once
// What a MONAI Label server offers, from its GET /info/ answer (PROTOCOLS §3): the app, its
// models (type, labels, dimension, options), trainers, active-learning strategies and datastore
// counts. Parsing tolerates missing and unknown fields; only a non-object answer is an error.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ai/MonaiTrainStats.h"

namespace delineate::core::ai {

// A segment name and the voxel value the server uses for it.
struct MonaiLabel {
  std::string name;
  int value = 0;
  bool background = false;  // value 0 or named "background": not a segment to create

  bool operator==(const MonaiLabel&) const = default;
};

// A per-model or per-trainer user option. A JSON list in `config` means "choices, the first is
// the default"; a bool is a checkbox; anything else a free value.
struct MonaiConfigOption {
  std::string key;
  nlohmann::json defaultValue;
  std::vector<nlohmann::json> choices;  // empty unless the server gave a list

  bool isCheckbox() const { return choices.empty() && defaultValue.is_boolean(); }
};

struct MonaiModel {
  std::string name;
  std::string type;  // as the server wrote it: "segmentation", "deepgrow", "deepedit", ...
  std::string description;
  std::vector<MonaiLabel> labels;  // ordered by value
  int dimension = 3;               // 2: works on one slice at a time
  std::vector<MonaiConfigOption> config;
};

struct MonaiTrainer {
  std::string name;
  std::string description;
  std::vector<MonaiConfigOption> config;
  std::vector<MonaiLabel> labels;
};

// An active-learning strategy or a scoring method.
struct MonaiMethod {
  std::string name;
  std::string description;
};

struct MonaiDatastoreStats {
  long long total = 0;
  long long completed = 0;  // images with a `final` label
  std::vector<std::pair<std::string, long long>> labelTags;
};

// How a client offers a model: one click-free run, or an interactive tool of a kind.
enum class MonaiModelGroup {
  Automatic,  // "segmentation" and types we do not know (bundle apps report their own strings)
  Deepgrow,
  Deepedit,
  Scribbles,
  ExtremePoints,  // "dextr3d": six extreme points of one structure (the built-in engine, Clara)
  Others,         // "annotation", "classification", "detection", "others": no voxel result to merge
};

const char* toString(MonaiModelGroup group);
MonaiModelGroup modelGroup(std::string_view type);

struct MonaiInfo {
  std::string name;
  std::string version;
  std::string description;
  std::vector<MonaiLabel> labels;  // app-level labels
  std::vector<MonaiModel> models;  // sorted by name
  std::vector<MonaiTrainer> trainers;
  std::vector<MonaiMethod> strategies;
  std::vector<MonaiMethod> scoring;
  std::optional<MonaiDatastoreStats> datastore;
  nlohmann::json trainStats;  // `train_stats` as given (object per trainer), or null
  std::vector<MonaiTrainStats> trainerStats;  // `train_stats` read, by trainer name
  nlohmann::json raw;                         // the whole answer

  const MonaiModel* findModel(std::string_view name) const;
  const MonaiTrainStats* findTrainStats(std::string_view trainer) const;
  std::vector<const MonaiModel*> modelsIn(MonaiModelGroup group) const;
};

// Parses the body of GET /info/. `server` names the server in errors. Throws
// Error(InvalidInput) when the body is not JSON or not a JSON object.
MonaiInfo parseMonaiInfo(std::string_view body, const std::string& server = {});

// Labels in either server form: a list of names (value = position + 1) or an object
// name -> integer value (sorted by value, then name). Entries of other shapes are skipped.
std::vector<MonaiLabel> parseMonaiLabels(const nlohmann::json& labels);

// The `config` object of a model or trainer as options, in key order.
std::vector<MonaiConfigOption> parseMonaiConfig(const nlohmann::json& config);

// Parses a server answer as JSON with a nesting limit (so that hostile input cannot exhaust the
// stack later). Throws Error(InvalidInput) "<what> is not JSON: ..." on failure.
nlohmann::json parseServerJson(std::string_view body, const std::string& what,
                               const std::string& server = {});

}  // namespace delineate::core::ai
