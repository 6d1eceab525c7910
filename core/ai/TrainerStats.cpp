#include "core/ai/TrainerStats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace delineate::core::ai {

using nlohmann::json;

namespace {

const json& member(const json& object, const char* key) {
  static const json null;
  if (!object.is_object()) {
    return null;
  }
  const auto it = object.find(key);
  return it == object.end() ? null : *it;
}

std::optional<double> number(const json& j) {
  if (!j.is_number()) {
    return std::nullopt;
  }
  const double d = j.get<double>();
  return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

// A whole number that fits an int (epochs are counts; 3.0 is accepted, 3.5 is not).
std::optional<int> whole(const json& j) {
  const std::optional<double> d = number(j);
  if (!d || *d != std::floor(*d) || std::abs(*d) > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*d);
}

void addMetric(TrainerMetrics& metrics, const std::string& name, double value) {
  const auto it = std::find_if(metrics.begin(), metrics.end(),
                               [&name](const auto& m) { return m.first == name; });
  if (it != metrics.end()) {
    it->second = value;
  } else {
    metrics.emplace_back(name, value);
  }
}

// The numeric members of an object, except those named `skip`.
void addMetrics(TrainerMetrics& metrics, const json& object, std::string_view skip = {}) {
  if (!object.is_object()) {
    return;
  }
  for (const auto& [name, value] : object.items()) {
    if (name == skip) {
      continue;
    }
    if (const std::optional<double> v = number(value)) {
      addMetric(metrics, name, *v);
    }
  }
}

}  // namespace

std::optional<double> TrainerStats::fractionDone() const {
  if (totalEpochs <= 0) {
    return std::nullopt;
  }
  return std::clamp(static_cast<double>(currentEpoch) / totalEpochs, 0.0, 1.0);
}

std::optional<double> TrainerStats::metric(std::string_view name) const {
  for (const auto& [key, value] : metrics) {
    if (key == name) {
      return value;
    }
  }
  return std::nullopt;
}

TrainerStats parseMonaiTrainStats(std::string trainer, const json& stats) {
  TrainerStats s;
  s.trainer = std::move(trainer);
  s.raw = stats;
  if (!stats.is_object()) {
    return s;
  }
  const std::optional<int> current = whole(member(stats, "current_epoch"));
  const std::optional<int> epoch = whole(member(stats, "epoch"));
  s.currentEpoch = std::max(0, current.value_or(epoch.value_or(0)));
  s.totalEpochs = std::max(0, whole(member(stats, "total_epochs")).value_or(0));

  // MONAI Label's top-level best metric is the validation one when it validates: take the key
  // metric's name and epoch from `eval` when it names one, else from `train`.
  const json& train = member(stats, "train");
  const json& eval = member(stats, "eval");
  const json& keyed = member(eval, "key_metric_name").is_string() ? eval : train;
  if (const json& name = member(keyed, "key_metric_name"); name.is_string()) {
    s.keyMetricName = name.get<std::string>();
  }
  s.bestMetric = number(member(stats, "best_metric"));
  if (!s.bestMetric) {
    s.bestMetric = number(member(keyed, "best_metric"));
  }
  s.bestMetricEpoch = whole(member(keyed, "best_metric_epoch"));
  addMetrics(s.metrics, member(train, "metrics"));
  addMetrics(s.metrics, member(eval, "metrics"));

  const json& history = member(stats, "history");
  if (history.is_array()) {
    for (std::size_t n = 0; n < history.size(); ++n) {
      const json& entry = history[n];
      if (!entry.is_object()) {
        continue;
      }
      TrainerEpoch e;
      const std::optional<int> given = whole(member(entry, "epoch"));
      e.epoch = given ? *given : static_cast<int>(std::min<std::size_t>(n + 1, 1u << 30));
      addMetrics(e.metrics, entry, "epoch");
      s.history.push_back(std::move(e));
    }
  }
  return s;
}

}  // namespace delineate::core::ai
