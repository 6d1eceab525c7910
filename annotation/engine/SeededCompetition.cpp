#include "annotation/engine/SeededCompetition.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "annotation/engine/RadixHeap.h"

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

void SeededCompetition::limitToBall(std::size_t front, const core::Size3& centre, double radiusMm) {
  if (front < fronts_.size()) {
    fronts_[front].limited = true;
    fronts_[front].centre = centre;
    fronts_[front].radius2 = float(radiusMm * radiusMm);
  }
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

  // The queue holds voxels; the front whose path set a voxel's best cost is kept beside it
  // (the cheapest entry of a voxel pops first, when that front is still the one).
  RadixHeap queue;
  std::vector<float> best(count, std::numeric_limits<float>::infinity());
  std::vector<std::uint16_t> via(count, 0);
  std::vector<std::uint16_t> owner(count, 0);  // 0 unreached, else front + 1
  for (std::size_t i = 0; i < count; ++i) {
    if (seeds_[i]) {
      best[i] = 0;
      via[i] = std::uint16_t(seeds_[i] - 1);
      queue.push(0.0f, std::uint32_t(i));
    }
  }
  const float reach = float(std::min<double>(clickReach, std::numeric_limits<float>::max()));
  std::size_t settled = 0;
  while (!queue.empty()) {
    const auto [atCost, at32] = queue.pop();
    const std::size_t at = at32;
    if (owner[at]) {
      continue;
    }
    const std::uint16_t frontIndex = via[at];
    owner[at] = std::uint16_t(frontIndex + 1);
    if ((++settled & 0xFFFFF) == 0) {
      progress.throwIfCancelled();
    }
    const Front& front = fronts_[frontIndex];
    const std::size_t x = at % nx, y = (at / nx) % n[1], z = at / nxy;
    const std::size_t c[3] = {x, y, z};
    const std::size_t next[6] = {x > 0 ? at - 1 : at,   x + 1 < n[0] ? at + 1 : at,
                                 y > 0 ? at - nx : at,  y + 1 < n[1] ? at + nx : at,
                                 z > 0 ? at - nxy : at, z + 1 < n[2] ? at + nxy : at};
    float offBase[3] = {};  // mm from a limited front's centre along each axis
    if (front.limited) {
      for (int a = 0; a < 3; ++a) {
        offBase[a] = (float(c[a]) - float(front.centre[a])) * length[a];
      }
    }
    for (int d = 0; d < 6; ++d) {
      const std::size_t m = next[d];
      if (m == at || owner[m]) {
        continue;
      }
      if (front.limited) {
        float off[3] = {offBase[0], offBase[1], offBase[2]};
        off[d / 2] += d % 2 ? length[d / 2] : -length[d / 2];
        if (off[0] * off[0] + off[1] * off[1] + off[2] * off[2] > front.radius2) {
          continue;
        }
      }
      float extra = 0.0f;
      if (axis >= 0) {
        const std::size_t t = c[axis] + (d / 2 != axis ? 0 : d % 2 ? 1 : std::size_t(-1));
        extra = axisExtra[t];
      }
      const float step =
          length[d / 2] * (1.0f + edge * std::abs(values_[m] - values_[at]) +
                           unlikeness(front, m, extra) + (seam.empty() ? 0.0f : seam[m]));
      const float cost = atCost + step;
      if (front.value && cost > reach) {
        continue;
      }
      if (cost < best[m]) {
        best[m] = cost;
        via[m] = frontIndex;
        queue.push(cost, std::uint32_t(m));
      }
    }
  }
  return owner;
}

}  // namespace delineate::annotation
