#pragma once
// One trainer's progress as GET /info/ reports it in `train_stats[<trainer>]` (docs/retraining.md,
// "Annotator loop"): epochs done and planned, the best value of the key metric, the latest metrics
// and, when the server keeps one (delineate-server does), the metrics of every epoch so far, for a
// plot. MONAI Label puts the training metrics under `train` and the validation ones under `eval`;
// both land in `metrics`. Parsing never throws: fields of the wrong type are left out.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace delineate::core::ai {

using TrainerMetrics = std::vector<std::pair<std::string, double>>;  // by name

struct TrainerEpoch {
  int epoch = 0;
  TrainerMetrics metrics;
};

struct TrainerStats {
  std::string trainer;
  int currentEpoch = 0;
  int totalEpochs = 0;  // 0: not said
  std::optional<double> bestMetric;
  std::optional<int> bestMetricEpoch;
  std::string keyMetricName;          // the metric `bestMetric` is the best of; may be empty
  TrainerMetrics metrics;             // of the latest epoch
  std::vector<TrainerEpoch> history;  // oldest first; empty when the server keeps none
  nlohmann::json raw;                 // as given

  // The server said nothing yet (`{}`: no run since it started).
  bool empty() const { return !raw.is_object() || raw.empty(); }
  // Share of the planned epochs done, 0..1; nullopt when the total is not known.
  std::optional<double> fractionDone() const;
  std::optional<double> metric(std::string_view name) const;
};

TrainerStats parseMonaiTrainStats(std::string trainer, const nlohmann::json& stats);

}  // namespace delineate::core::ai
