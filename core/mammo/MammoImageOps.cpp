#include "core/mammo/MammoImageOps.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace delineate::core::mammo {

namespace {

struct MinOf {
  float operator()(float a, float b) const { return std::min(a, b); }
};
struct MaxOf {
  float operator()(float a, float b) const { return std::max(a, b); }
};

// Running minimum (or maximum) over windows of w = 2 * radius + 1 values, van Herk / Gil-Werman:
// forward and backward running values within blocks of w, the window's result the better of the
// backward value at its start and the forward value at its end; edges replicated. `stride`
// steps between values; `lanes` sequences side by side in memory (a strip of columns) are
// filtered together, so that a vertical pass reads rows in order and vectorises.
template <class Op>
void runningExtreme(const float* in, float* out, std::size_t n, std::size_t stride,
                    std::size_t lanes, std::size_t radius, std::vector<float>& forward,
                    std::vector<float>& backward, Op op) {
  const std::size_t w = 2 * radius + 1;
  const std::size_t padded = n + 2 * radius;
  forward.resize(padded * lanes);
  backward.resize(padded * lanes);
  const auto source = [&](std::size_t i) {  // padded index -> input row, edges replicated
    const std::size_t k = i < radius ? 0 : std::min(i - radius, n - 1);
    return in + k * stride;
  };
  for (std::size_t block = 0; block < padded; block += w) {
    const std::size_t end = std::min(padded, block + w);
    std::copy(source(block), source(block) + lanes, forward.data() + block * lanes);
    for (std::size_t i = block + 1; i < end; ++i) {
      const float* s = source(i);
      const float* prev = forward.data() + (i - 1) * lanes;
      float* f = forward.data() + i * lanes;
      for (std::size_t l = 0; l < lanes; ++l) {
        f[l] = op(s[l], prev[l]);
      }
    }
    std::copy(source(end - 1), source(end - 1) + lanes, backward.data() + (end - 1) * lanes);
    for (std::size_t i = end - 1; i-- > block;) {
      const float* s = source(i);
      const float* next = backward.data() + (i + 1) * lanes;
      float* b = backward.data() + i * lanes;
      for (std::size_t l = 0; l < lanes; ++l) {
        b[l] = op(s[l], next[l]);
      }
    }
  }
  for (std::size_t x = 0; x < n; ++x) {
    const float* b = backward.data() + x * lanes;
    const float* f = forward.data() + (x + 2 * radius) * lanes;
    float* o = out + x * stride;
    for (std::size_t l = 0; l < lanes; ++l) {
      o[l] = op(b[l], f[l]);
    }
  }
}

// The same along one row (lanes = 1, contiguous), without per-value index arithmetic.
template <class Op>
void rowExtreme(const float* in, float* out, std::size_t n, std::size_t radius,
                std::vector<float>& padded, std::vector<float>& forward,
                std::vector<float>& backward, Op op) {
  const std::size_t w = 2 * radius + 1;
  const std::size_t size = n + 2 * radius;
  padded.resize(size);
  forward.resize(size);
  backward.resize(size);
  std::fill(padded.begin(), padded.begin() + std::ptrdiff_t(radius), in[0]);
  std::copy(in, in + n, padded.begin() + std::ptrdiff_t(radius));
  std::fill(padded.begin() + std::ptrdiff_t(radius + n), padded.end(), in[n - 1]);
  for (std::size_t block = 0; block < size; block += w) {
    const std::size_t end = std::min(size, block + w);
    forward[block] = padded[block];
    for (std::size_t i = block + 1; i < end; ++i) {
      forward[i] = op(padded[i], forward[i - 1]);
    }
    backward[end - 1] = padded[end - 1];
    for (std::size_t i = end - 1; i-- > block;) {
      backward[i] = op(padded[i], backward[i + 1]);
    }
  }
  const float* f = forward.data() + 2 * radius;
  for (std::size_t x = 0; x < n; ++x) {
    out[x] = op(backward[x], f[x]);
  }
}

// Rows of `in` into `tmp`, then columns of `tmp` into `out` (which may be `in`).
template <class Op>
void extremeFilter(const FloatImage& in, FloatImage& out, FloatImage& tmp, std::size_t radius,
                   Op op) {
  std::vector<float> padded, forward, backward;
  for (std::size_t r = 0; r < in.rows; ++r) {
    rowExtreme(in.values.data() + r * in.columns, tmp.values.data() + r * in.columns, in.columns,
               radius, padded, forward, backward, op);
  }
  constexpr std::size_t kStrip = 128;  // columns filtered together, reading rows in order
  for (std::size_t c = 0; c < in.columns; c += kStrip) {
    const std::size_t lanes = std::min(kStrip, in.columns - c);
    runningExtreme(tmp.values.data() + c, out.values.data() + c, in.rows, in.columns, lanes, radius,
                   forward, backward, op);
  }
}

}  // namespace

FloatImage toFloatImage(const Volume& volume) {
  const ImageGeometry& g = volume.geometry();
  FloatImage out(g.size[0], g.size[1]);
  const std::size_t n = out.values.size();
  dispatchScalar(volume.scalarType(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = volume.data<T>();
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        // Non-finite values (and doubles beyond float) would poison sorting and sums.
        out.values[i] = std::isfinite(in[i]) && std::abs(in[i]) < T(1e30) ? float(in[i]) : 0.0f;
      } else {
        out.values[i] = static_cast<float>(in[i]);
      }
    }
  });
  if (volume.info().photometric == "MONOCHROME1") {
    const auto [lo, hi] = volume.valueRange();
    const auto flip = static_cast<float>(lo + hi);
    for (float& v : out.values) {
      v = flip - v;
    }
  }
  return out;
}

FloatImage downsampleMean(const FloatImage& image, std::size_t factor) {
  factor = std::max<std::size_t>(factor, 1);
  const std::size_t oc = (image.columns + factor - 1) / factor;
  const std::size_t orows = (image.rows + factor - 1) / factor;
  FloatImage out(oc, orows);
  std::vector<double> sums(oc);
  for (std::size_t br = 0; br < orows; ++br) {
    std::fill(sums.begin(), sums.end(), 0.0);
    const std::size_t r0 = br * factor, r1 = std::min(image.rows, r0 + factor);
    for (std::size_t r = r0; r < r1; ++r) {
      const float* row = image.values.data() + r * image.columns;
      for (std::size_t bc = 0; bc < oc; ++bc) {
        const std::size_t c0 = bc * factor, c1 = std::min(image.columns, c0 + factor);
        float s = 0;
        for (std::size_t c = c0; c < c1; ++c) {
          s += row[c];
        }
        sums[bc] += s;
      }
    }
    for (std::size_t bc = 0; bc < oc; ++bc) {
      const std::size_t c0 = bc * factor, c1 = std::min(image.columns, c0 + factor);
      out.at(bc, br) = static_cast<float>(sums[bc] / double((c1 - c0) * (r1 - r0)));
    }
  }
  return out;
}

FloatImage smooth3(const FloatImage& image) {
  const std::size_t nc = image.columns, nr = image.rows;
  FloatImage tmp(nc, nr), out(nc, nr);
  if (nc == 0 || nr == 0) {
    return out;
  }
  for (std::size_t r = 0; r < nr; ++r) {
    const float* in = image.values.data() + r * nc;
    float* o = tmp.values.data() + r * nc;
    for (std::size_t c = 0; c < nc; ++c) {
      const float left = in[c > 0 ? c - 1 : 0], right = in[c + 1 < nc ? c + 1 : nc - 1];
      o[c] = 0.25f * (left + 2 * in[c] + right);
    }
  }
  for (std::size_t r = 0; r < nr; ++r) {
    const float* up = tmp.values.data() + (r > 0 ? r - 1 : 0) * nc;
    const float* mid = tmp.values.data() + r * nc;
    const float* down = tmp.values.data() + (r + 1 < nr ? r + 1 : nr - 1) * nc;
    float* o = out.values.data() + r * nc;
    for (std::size_t c = 0; c < nc; ++c) {
      o[c] = 0.25f * (up[c] + 2 * mid[c] + down[c]);
    }
  }
  return out;
}

FloatImage openingSquare(const FloatImage& image, std::size_t radius) {
  if (image.values.empty()) {
    return image;
  }
  FloatImage out(image.columns, image.rows), tmp(image.columns, image.rows);
  extremeFilter(image, out, tmp, radius, MinOf{});
  extremeFilter(out, out, tmp, radius, MaxOf{});
  return out;
}

float percentile(const FloatImage& image, const Mask& mask, double q, std::size_t sampleLimit) {
  const std::size_t n = image.values.size();
  std::size_t inside = 0;
  for (std::size_t i = 0; i < n; ++i) {
    inside += mask.empty() || mask[i] ? 1 : 0;
  }
  if (inside == 0) {
    return 0;
  }
  const std::size_t every =
      std::max<std::size_t>(1, inside / std::max<std::size_t>(sampleLimit, 1));
  std::vector<float> values;
  values.reserve(inside / every + 1);
  std::size_t seen = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if ((mask.empty() || mask[i]) && seen++ % every == 0) {
      values.push_back(image.values[i]);
    }
  }
  const auto k = std::size_t(std::clamp(q, 0.0, 1.0) * double(values.size() - 1) + 0.5);
  std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(k), values.end());
  return values[k];
}

Mask largestRegion(const Mask& mask, std::size_t columns, std::size_t rows) {
  std::vector<std::int32_t> region(mask.size(), -1);
  std::vector<std::size_t> stack, sizes;
  for (std::size_t start = 0; start < mask.size(); ++start) {
    if (!mask[start] || region[start] >= 0) {
      continue;
    }
    const auto id = std::int32_t(sizes.size());
    std::size_t size = 0;
    region[start] = id;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      ++size;
      const std::size_t c = i % columns, r = i / columns;
      const auto visit = [&](std::size_t j) {
        if (mask[j] && region[j] < 0) {
          region[j] = id;
          stack.push_back(j);
        }
      };
      if (c > 0)
        visit(i - 1);
      if (c + 1 < columns)
        visit(i + 1);
      if (r > 0)
        visit(i - columns);
      if (r + 1 < rows)
        visit(i + columns);
    }
    sizes.push_back(size);
  }
  Mask out(mask.size(), 0);
  if (sizes.empty()) {
    return out;
  }
  const auto best = std::int32_t(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
  for (std::size_t i = 0; i < mask.size(); ++i) {
    out[i] = region[i] == best ? 1 : 0;
  }
  return out;
}

MaskedIntegral::MaskedIntegral(const FloatImage& image, const Mask& mask)
    : columns_(image.columns),
      rows_(image.rows),
      sum_((image.columns + 1) * (image.rows + 1), 0.0),
      count_((image.columns + 1) * (image.rows + 1), 0.0) {
  const std::size_t w = columns_ + 1;
  for (std::size_t r = 0; r < rows_; ++r) {
    double rowSum = 0, rowCount = 0;
    for (std::size_t c = 0; c < columns_; ++c) {
      const std::size_t i = r * columns_ + c;
      if (mask[i]) {
        rowSum += image.values[i];
        rowCount += 1;
      }
      sum_[(r + 1) * w + c + 1] = sum_[r * w + c + 1] + rowSum;
      count_[(r + 1) * w + c + 1] = count_[r * w + c + 1] + rowCount;
    }
  }
}

double MaskedIntegral::mean(long c, long r, long half, double* fraction) const {
  const long c0 = std::max(0L, c - half), c1 = std::min(long(columns_), c + half + 1);
  const long r0 = std::max(0L, r - half), r1 = std::min(long(rows_), r + half + 1);
  if (c0 >= c1 || r0 >= r1) {
    *fraction = 0;
    return 0;
  }
  const std::size_t w = columns_ + 1;
  const auto at = [&](const std::vector<double>& t, long cc, long rr) {
    return t[std::size_t(rr) * w + std::size_t(cc)];
  };
  const double n =
      at(count_, c1, r1) - at(count_, c0, r1) - at(count_, c1, r0) + at(count_, c0, r0);
  const double s = at(sum_, c1, r1) - at(sum_, c0, r1) - at(sum_, c1, r0) + at(sum_, c0, r0);
  const double box = double((2 * half + 1) * (2 * half + 1));
  *fraction = n / box;
  return n > 0.5 ? s / n : 0;
}

std::vector<Peak> separatedPeaks(const FloatImage& score, float threshold, long window,
                                 double minDistance, FloatImage& heat) {
  const std::size_t nc = score.columns, nr = score.rows;
  std::vector<Peak> candidates;
  for (std::size_t r = 0; r < nr; ++r) {
    for (std::size_t c = 0; c < nc; ++c) {
      const float s = score.at(c, r);
      heat.at(c, r) = std::max(heat.at(c, r), s);
      if (s < threshold) {
        continue;
      }
      bool peak = true;
      for (long dr = -window; dr <= window && peak; ++dr) {
        for (long dc = -window; dc <= window && peak; ++dc) {
          const long x = long(c) + dc, y = long(r) + dr;
          if (x >= 0 && y >= 0 && x < long(nc) && y < long(nr) &&
              score.at(std::size_t(x), std::size_t(y)) > s) {
            peak = false;
          }
        }
      }
      if (peak) {
        candidates.push_back({c, r, s});
      }
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Peak& x, const Peak& y) { return x.score > y.score; });
  std::vector<Peak> kept;
  for (const Peak& k : candidates) {
    const bool near = std::any_of(kept.begin(), kept.end(), [&](const Peak& q) {
      return std::hypot(double(q.c) - double(k.c), double(q.r) - double(k.r)) < minDistance;
    });
    if (!near) {
      kept.push_back(k);
    }
  }
  return kept;
}

}  // namespace delineate::core::mammo
