#include "core/mammo/DemoAsymmetryFinder.h"

#include <algorithm>
#include <cmath>

namespace delineate::core::mammo {

namespace {

constexpr double kSmoothHalfMm = 5;
constexpr double kNmsMm = 20;
constexpr double kBoxHalfMm = 10;

// Score of a density excess over the mirror image (on the breasts' common scale), at most 0.95.
double scoreOf(double excess) {
  constexpr double kMiddle = 0.75, kWidth = 0.08;
  return 0.95 / (1 + std::exp(-(excess - kMiddle) / kWidth));
}

// The breast's density on a common scale, and where its centre of area lies.
struct Density {
  FloatImage values;  // smoothed, (value - median) / range; meaningful inside the breast only
  double centreRowMm = 0;
};

Density densityOf(const BreastImage& b) {
  Density d;
  const std::size_t nc = b.coarse.columns, nr = b.coarse.rows;
  const MaskedIntegral integral(b.coarse, b.tissue);
  const long half = std::max(1L, std::lround(kSmoothHalfMm / b.coarseMm));
  const float median = percentile(b.coarse, b.tissue, 0.5);
  const double range = double(b.high - b.low);
  d.values = FloatImage(nc, nr);
  double rows = 0, count = 0;
  for (std::size_t r = 0; r < nr; ++r) {
    for (std::size_t c = 0; c < nc; ++c) {
      if (b.tissue[r * nc + c]) {
        double fraction = 0;
        const double m = integral.mean(long(c), long(r), half, &fraction);
        d.values.at(c, r) = float((m - median) / range);
        rows += double(r);
        count += 1;
      }
    }
  }
  d.centreRowMm = count > 0 ? (rows / count + 0.5) * b.coarseMm : 0;
  return d;
}

}  // namespace

std::vector<FindingMark> findAsymmetries(const BreastImage& b, const BreastImage& other,
                                         double threshold, FloatImage& heat,
                                         ProgressSink& progress) {
  std::vector<FindingMark> marks;
  if (!b.hasBreast() || !other.hasBreast()) {
    return marks;
  }
  progress.throwIfCancelled();
  const Density mine = densityOf(b), theirs = densityOf(other);
  const std::size_t nc = b.coarse.columns, nr = b.coarse.rows;
  const std::size_t oc = other.coarse.columns, orows = other.coarse.rows;
  FloatImage score(nc, nr);
  for (std::size_t r = 0; r < nr; ++r) {
    for (std::size_t c = 0; c < nc; ++c) {
      if (!b.tissue[r * nc + c]) {
        continue;
      }
      const double uMm = (double(b.chestWallLeft ? c : nc - 1 - c) + 0.5) * b.coarseMm;
      const double vMm = (double(r) + 0.5) * b.coarseMm - mine.centreRowMm;
      const long u = std::lround(uMm / other.coarseMm - 0.5);
      const long rr = std::lround((vMm + theirs.centreRowMm) / other.coarseMm - 0.5);
      if (u < 0 || rr < 0 || u >= long(oc) || rr >= long(orows)) {
        continue;
      }
      const std::size_t cc = other.chestWallLeft ? std::size_t(u) : oc - 1 - std::size_t(u);
      if (!other.tissue[std::size_t(rr) * oc + cc]) {
        continue;
      }
      const double excess = mine.values.at(c, r) - theirs.values.at(cc, std::size_t(rr));
      score.at(c, r) = float(scoreOf(excess));
    }
  }
  const long window = std::max(1L, std::lround(0.5 * kNmsMm / b.coarseMm));
  const double f = double(b.factor), half = kBoxHalfMm / b.pixelMm;
  for (const Peak& k : separatedPeaks(score, float(threshold), window, kNmsMm / b.coarseMm, heat)) {
    FindingMark m;
    m.kind = "asymmetry";
    m.column = (double(k.c) + 0.5) * f - 0.5;
    m.row = (double(k.r) + 0.5) * f - 0.5;
    m.x0 = std::max(0.0, m.column - half);
    m.y0 = std::max(0.0, m.row - half);
    m.x1 = std::min(double(b.full.columns - 1), m.column + half);
    m.y1 = std::min(double(b.full.rows - 1), m.row + half);
    m.score = k.score;
    marks.push_back(m);
  }
  return marks;
}

}  // namespace delineate::core::mammo
