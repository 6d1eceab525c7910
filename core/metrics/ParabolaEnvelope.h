#pragma once
// The one-dimensional step of an exact separable Euclidean distance transform (Felzenszwalb and
// Huttenlocher, "Distance Transforms of Sampled Functions", 2012): the lower envelope of the
// parabolas f[q] + w (p - q)^2 over the samples q, evaluated at sample positions p. With f the
// squared distances found along the earlier axes and w the squared spacing of this axis, the
// result is the squared distance over all axes so far. Infinite samples (no feature) are skipped.
// The boundaries between parabolas are kept as fractions (numerator, positive denominator) so
// that building needs no division.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace delineate::core {

class ParabolaEnvelope {
 public:
  static constexpr float kInf = std::numeric_limits<float>::infinity();

  // Builds the envelope of the n samples f[0], f[stride], ... Returns false when every sample
  // is infinite: there is no parabola and every value is infinite.
  bool build(const float* f, std::size_t n, std::size_t stride, double w) {
    w_ = w;
    if (vertex_.size() < n) {
      vertex_.resize(n);
      height_.resize(n);
      lifted_.resize(n);
      numerator_.resize(n);
      denominator_.resize(n);
    }
    count_ = 0;
    cursor_ = 0;
    for (std::size_t q = 0; q < n; ++q) {
      const float fq = f[q * stride];
      if (!(fq < kInf)) {
        continue;
      }
      const double x = double(q);
      const double lifted = double(fq) + w * x * x;
      double num = 0, den = 1;
      while (count_ > 0) {
        // Where the new parabola starts to undercut the last one: num / den.
        const std::size_t k = count_ - 1;
        num = lifted - lifted_[k];
        den = 2.0 * w * (x - vertex_[k]);
        if (k == 0 || num * denominator_[k] > numerator_[k] * den) {
          break;
        }
        --count_;  // the last parabola is nowhere lowest
      }
      vertex_[count_] = x;
      height_[count_] = fq;
      lifted_[count_] = lifted;
      numerator_[count_] = num;
      denominator_[count_] = den;
      ++count_;
    }
    return count_ > 0;
  }

  // The envelope at p; successive calls must not decrease p (a cursor walks the envelope).
  double at(std::size_t p) {
    const double x = double(p);
    while (cursor_ + 1 < count_ && numerator_[cursor_ + 1] < x * denominator_[cursor_ + 1]) {
      ++cursor_;
    }
    const double d = x - vertex_[cursor_];
    return height_[cursor_] + w_ * d * d;
  }

  // Every value, into out[0], out[stride], ... (n values); out may be the f given to build().
  void writeAll(float* out, std::size_t n, std::size_t stride) {
    cursor_ = 0;
    for (std::size_t p = 0; p < n; ++p) {
      out[p * stride] = float(at(p));
    }
  }

 private:
  double w_ = 1;
  // Per parabola of the envelope: its vertex, its height there, height + w vertex^2, and where
  // it becomes the lowest (numerator / denominator; unused for the first).
  std::vector<double> vertex_, height_, lifted_, numerator_, denominator_;
  std::size_t count_ = 0;
  std::size_t cursor_ = 0;
};

}  // namespace delineate::core
