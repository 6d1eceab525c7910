#pragma once
// Descriptive statistics of one metric over the cases of a dataset: count, mean, sample standard
// deviation, median and quartiles of the finite values; infinite and NaN values are counted
// apart (an empty mask gives HD = +inf, a zero denominator NaN: docs/metrics.md).
#include <cstddef>
#include <limits>
#include <vector>

namespace delineate::core {

struct SummaryStatistics {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  std::size_t n = 0;          // finite values, over which the statistics below are taken
  std::size_t infinite = 0;   // +inf or -inf values, left out
  std::size_t undefined = 0;  // NaN values, left out
  double mean = kNaN;
  double sd = kNaN;  // sample standard deviation (n - 1); NaN when n < 2
  double median = kNaN;
  double q1 = kNaN;  // 25th percentile, linear interpolation (NumPy's default)
  double q3 = kNaN;  // 75th percentile
  double iqr() const { return q3 - q1; }
};

// The p-quantile (p in [0, 1]) of sorted values by linear interpolation between the order
// statistics at rank p (n - 1). NaN when `sorted` is empty.
double linearQuantile(const std::vector<double>& sorted, double p);

SummaryStatistics summarize(std::vector<double> values);

}  // namespace delineate::core
