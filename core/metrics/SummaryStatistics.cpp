#include "core/metrics/SummaryStatistics.h"

#include <algorithm>
#include <cmath>

namespace delineate::core {

double linearQuantile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) {
    return SummaryStatistics::kNaN;
  }
  const double rank = std::clamp(p, 0.0, 1.0) * double(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double t = rank - double(below);
  return sorted[below] + t * (sorted[above] - sorted[below]);
}

SummaryStatistics summarize(std::vector<double> values) {
  SummaryStatistics s;
  std::vector<double> finite;
  finite.reserve(values.size());
  for (const double v : values) {
    if (std::isnan(v)) {
      ++s.undefined;
    } else if (std::isinf(v)) {
      ++s.infinite;
    } else {
      finite.push_back(v);
    }
  }
  s.n = finite.size();
  if (finite.empty()) {
    return s;
  }
  std::sort(finite.begin(), finite.end());
  double sum = 0;
  for (const double v : finite) {
    sum += v;
  }
  s.mean = sum / double(s.n);
  if (s.n > 1) {
    double squares = 0;
    for (const double v : finite) {
      squares += (v - s.mean) * (v - s.mean);
    }
    s.sd = std::sqrt(squares / double(s.n - 1));
  }
  s.median = linearQuantile(finite, 0.5);
  s.q1 = linearQuantile(finite, 0.25);
  s.q3 = linearQuantile(finite, 0.75);
  return s;
}

}  // namespace delineate::core
