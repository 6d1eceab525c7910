#pragma once
// Two intensity histograms over a region of interest, the structure's and its surroundings',
// and per intensity the log of their ratio: positive where a value is more typical of the
// structure. Also the region's contrast unit, which scales intensity changes into costs.
#include <vector>

namespace delineate::annotation {

class TissueLikelihood {
 public:
  // The bins span the 1st to 99th percentile of `values` (the region's smoothed values).
  explicit TissueLikelihood(const std::vector<float>& values);

  // A sample of the structure (`structure`) or of its surroundings, with a weight.
  void add(bool structure, float value, double weight);
  // Smooths both histograms and computes the table; call once after the samples.
  void finish();

  // log(p_structure / p_surroundings) at `value`, within [-4, 4].
  float logRatio(float value) const { return table_[bin(value)]; }
  // A twentieth of the spread of the region's central 80 % of values (at least 1e-6).
  double contrastUnit() const { return unit_; }

 private:
  std::size_t bin(float value) const;

  float lo_ = 0, width_ = 1;
  double unit_ = 1;
  std::vector<double> structure_, surroundings_;
  std::vector<float> table_;
};

}  // namespace delineate::annotation
