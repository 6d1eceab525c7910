#include "annotation/engine/TissueLikelihood.h"

#include <algorithm>
#include <cmath>

namespace delineate::annotation {

namespace {

constexpr std::size_t kBins = 64;
constexpr double kSmoothingBins = 1.5;
constexpr float kLimit = 4.0f;

float percentile(std::vector<float> v, double q) {
  if (v.empty()) {
    return 0;
  }
  auto at = v.begin() + std::ptrdiff_t(q * double(v.size() - 1));
  std::nth_element(v.begin(), at, v.end());
  return *at;
}

std::vector<double> smoothed(const std::vector<double>& h) {
  const int reach = int(std::ceil(3 * kSmoothingBins));
  std::vector<double> out(h.size(), 0);
  for (int i = 0; i < int(h.size()); ++i) {
    for (int d = -reach; d <= reach; ++d) {
      const int j = std::clamp(i + d, 0, int(h.size()) - 1);
      out[std::size_t(i)] +=
          h[std::size_t(j)] * std::exp(-0.5 * d * d / (kSmoothingBins * kSmoothingBins));
    }
  }
  double total = 0;
  for (const double v : out) {
    total += v;
  }
  for (double& v : out) {
    v = total > 0 ? v / total : 1.0 / double(out.size());
  }
  return out;
}

}  // namespace

TissueLikelihood::TissueLikelihood(const std::vector<float>& values)
    : structure_(kBins, 0), surroundings_(kBins, 0), table_(kBins, 0) {
  // Percentiles of a sample of at most ~200 000 values.
  std::vector<float> sample;
  const std::size_t step = std::max<std::size_t>(1, values.size() / 200000);
  for (std::size_t i = 0; i < values.size(); i += step) {
    sample.push_back(values[i]);
  }
  const float p1 = percentile(sample, 0.01), p99 = percentile(sample, 0.99);
  const float p10 = percentile(sample, 0.10), p90 = percentile(sample, 0.90);
  lo_ = p1;
  width_ = std::max(1e-6f, (p99 - p1) / float(kBins));
  unit_ = std::max(1e-6, double(p90 - p10) / 20.0);
}

std::size_t TissueLikelihood::bin(float value) const {
  const float b = std::floor((value - lo_) / width_);
  return std::size_t(std::clamp(b, 0.0f, float(kBins - 1)));
}

void TissueLikelihood::add(bool structure, float value, double weight) {
  (structure ? structure_ : surroundings_)[bin(value)] += weight;
}

void TissueLikelihood::finish() {
  const std::vector<double> s = smoothed(structure_), r = smoothed(surroundings_);
  const double floor = 1e-3 / double(kBins);
  for (std::size_t i = 0; i < kBins; ++i) {
    table_[i] = std::clamp(float(std::log((s[i] + floor) / (r[i] + floor))), -kLimit, kLimit);
  }
}

}  // namespace delineate::annotation
