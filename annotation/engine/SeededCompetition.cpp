#include "annotation/engine/SeededCompetition.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace delineate::annotation {

namespace {

constexpr float kClickTolerance = 2.0f;  // contrast units a click's tissue may vary freely
constexpr float kMaxUnlikeness = 4.0f;

}  // namespace

SeededCompetition::SeededCompetition(const RoiGrid& grid, const std::vector<float>& values,
                                     const TissueLikelihood& tissue)
    : grid_(grid), values_(values), tissue_(tissue), seeds_(values.size(), 0) {}

std::size_t SeededCompetition::addFront(bool structure, std::optional<float> tissueValue) {
  fronts_.push_back({structure, tissueValue});
  return fronts_.size() - 1;
}

void SeededCompetition::seed(std::size_t at, std::size_t front) {
  if (at < seeds_.size() && front < fronts_.size()) {
    seeds_[at] = std::uint16_t(front + 1);
  }
}

float SeededCompetition::unlikeness(const Front& front, std::size_t q, float axisExtra) const {
  const float v = values_[q];
  if (front.value) {
    const float off = std::abs(v - *front.value) / float(tissue_.contrastUnit()) - kClickTolerance;
    return float(clickTissueWeight) * std::clamp(off, 0.0f, kMaxUnlikeness);
  }
  const float l = tissue_.logRatio(v);
  return float(likelihoodWeight) * std::max(0.0f, front.structure ? -l : l) +
         (front.structure ? axisExtra : 0.0f);
}

std::vector<std::uint16_t> SeededCompetition::owners(core::ProgressSink& progress) const {
  const core::Size3 n = grid_.extent();
  const std::size_t nx = n[0], nxy = n[0] * n[1], count = values_.size();
  // Per slice along the axis, the structure's extra cost off the box's slice.
  std::vector<float> axisExtra(axis >= 0 ? n[std::size_t(axis)] : 1, 0.0f);
  if (axis >= 0 && axisWeight > 0) {
    const double mm = grid_.spacing[std::size_t(axis)];
    for (std::size_t t = 0; t < axisExtra.size(); ++t) {
      if ((t < axisSlice && axisFreeBelow) || (t > axisSlice && axisFreeAbove)) {
        continue;
      }
      const double off = double(t > axisSlice ? t - axisSlice : axisSlice - t) * mm;
      axisExtra[t] = off > axisReachMm ? float(axisWeight * (off - axisReachMm) / axisReachMm) : 0;
    }
  }
  const std::size_t axisStride = axis == 0 ? 1 : axis == 1 ? nx : nxy;
  const std::size_t axisSize = axis >= 0 ? n[std::size_t(axis)] : 1;
  const float edge = float(edgeWeight / tissue_.contrastUnit());
  std::vector<float> seam;
  if (seamWeight > 0) {
    seam.assign(count, 0.0f);
    const float w = float(seamWeight / tissue_.contrastUnit());
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t x = i % nx, y = (i / nx) % n[1], z = i / nxy;
      const float gx = x > 0 && x + 1 < n[0] ? 0.5f * (values_[i + 1] - values_[i - 1]) : 0.0f;
      const float gy = y > 0 && y + 1 < n[1] ? 0.5f * (values_[i + nx] - values_[i - nx]) : 0.0f;
      const float gz = z > 0 && z + 1 < n[2] ? 0.5f * (values_[i + nxy] - values_[i - nxy]) : 0.0f;
      seam[i] = w * std::sqrt(gx * gx + gy * gy + gz * gz);
    }
  }
  const float length[3] = {float(grid_.spacing[0]), float(grid_.spacing[1]),
                           float(grid_.spacing[2])};

  struct Entry {
    float cost;
    std::uint32_t at;
    std::uint16_t front;
    bool operator>(const Entry& o) const { return cost > o.cost; }
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  std::vector<float> best(count, std::numeric_limits<float>::infinity());
  std::vector<std::uint16_t> owner(count, 0);  // 0 unreached, else front + 1
  for (std::size_t i = 0; i < count; ++i) {
    if (seeds_[i]) {
      best[i] = 0;
      queue.push({0, std::uint32_t(i), std::uint16_t(seeds_[i] - 1)});
    }
  }
  const float reach = float(std::min<double>(clickReach, std::numeric_limits<float>::max()));
  std::size_t settled = 0;
  while (!queue.empty()) {
    const Entry e = queue.top();
    queue.pop();
    if (owner[e.at]) {
      continue;
    }
    owner[e.at] = std::uint16_t(e.front + 1);
    if ((++settled & 0xFFFFF) == 0) {
      progress.throwIfCancelled();
    }
    const Front& front = fronts_[e.front];
    const std::size_t at = e.at, x = at % nx, y = (at / nx) % n[1], z = at / nxy;
    const std::size_t next[6] = {x > 0 ? at - 1 : at,   x + 1 < n[0] ? at + 1 : at,
                                 y > 0 ? at - nx : at,  y + 1 < n[1] ? at + nx : at,
                                 z > 0 ? at - nxy : at, z + 1 < n[2] ? at + nxy : at};
    for (int d = 0; d < 6; ++d) {
      const std::size_t m = next[d];
      if (m == at || owner[m]) {
        continue;
      }
      const float extra = axis >= 0 ? axisExtra[(m / axisStride) % axisSize] : 0.0f;
      const float step =
          length[d / 2] * (1.0f + edge * std::abs(values_[m] - values_[at]) +
                           unlikeness(front, m, extra) + (seam.empty() ? 0.0f : seam[m]));
      const float cost = e.cost + step;
      if (front.value && cost > reach) {
        continue;
      }
      if (cost < best[m]) {
        best[m] = cost;
        queue.push({cost, std::uint32_t(m), e.front});
      }
    }
  }
  return owner;
}

}  // namespace delineate::annotation
