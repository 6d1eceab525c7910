#include "core/mammo/DemoMassFinder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numbers>

namespace delineate::core::mammo {

namespace {

constexpr double kRadiiMm[] = {4, 6, 8, 10, 12};
constexpr double kMassNmsMm = 10;  // marks closer than this keep only the better one

// Score of a response (see the header), at most 0.95: this detector is never certain.
double massScoreOf(double response) {
  constexpr double kMiddle = 0.7, kWidth = 0.08;
  return 0.95 / (1 + std::exp(-(response - kMiddle) / kWidth));
}

}  // namespace

std::vector<FindingMark> findMasses(const BreastImage& b, double threshold, FloatImage& heat,
                                    ProgressSink& progress) {
  std::vector<FindingMark> marks;
  const std::size_t nc = b.coarse.columns, nr = b.coarse.rows;
  if (!b.hasBreast()) {
    return marks;
  }
  const MaskedIntegral integral(b.coarse, b.tissue);
  const double range = double(b.high - b.low);
  const double median = percentile(b.coarse, b.tissue, 0.5);
  FloatImage score(nc, nr), radius(nc, nr);
  for (const double rMm : kRadiiMm) {
    progress.throwIfCancelled();
    const double rp = rMm / b.coarseMm;
    const long centreHalf = std::max(1L, std::lround(0.7 * rp));
    const long ringHalf = std::max(1L, std::lround(0.5 * rp));
    const double ring = 2.2 * rp;
    const double sizeWeight = 0.8 + 0.2 * (rMm - 4) / 8;  // larger masses weigh more
    std::array<std::array<long, 2>, 8> offsets{};
    for (std::size_t k = 0; k < 8; ++k) {
      const double a = double(k) * std::numbers::pi / 4;
      offsets[k] = {std::lround(ring * std::cos(a)), std::lround(ring * std::sin(a))};
    }
    for (std::size_t r = 0; r < nr; ++r) {
      for (std::size_t c = 0; c < nc; ++c) {
        if (!b.tissue[r * nc + c]) {
          continue;
        }
        double fraction = 0;
        const double centre = integral.mean(long(c), long(r), centreHalf, &fraction);
        if (fraction < 0.6) {
          continue;
        }
        std::array<double, 8> around{};
        std::size_t valid = 0;
        for (const auto& o : offsets) {
          const double m = integral.mean(long(c) + o[0], long(r) + o[1], ringHalf, &fraction);
          if (fraction >= 0.5) {
            around[valid++] = m;
          }
        }
        if (valid < 5) {
          continue;
        }
        std::partial_sort(around.begin(), around.begin() + 2, around.begin() + long(valid),
                          std::greater<double>());
        // Brighter than its surroundings (all but one side) and than the tissue in general.
        const double excess = 0.5 * (centre - around[1]) + 0.5 * (centre - median);
        const double s = massScoreOf(sizeWeight * excess / range);
        if (s > score.at(c, r)) {
          score.at(c, r) = float(s);
          radius.at(c, r) = float(rMm);
        }
      }
    }
  }
  // Local maxima, best first, kept when no better one is within kMassNmsMm.
  const long window = std::max(1L, std::lround(0.5 * kMassNmsMm / b.coarseMm));
  const double f = double(b.factor);
  for (const Peak& k :
       separatedPeaks(score, float(threshold), window, kMassNmsMm / b.coarseMm, heat)) {
    FindingMark m;
    m.kind = "mass";
    m.column = (double(k.c) + 0.5) * f - 0.5;
    m.row = (double(k.r) + 0.5) * f - 0.5;
    const double half = radius.at(k.c, k.r) / b.pixelMm;
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
