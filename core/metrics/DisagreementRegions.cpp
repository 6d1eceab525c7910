#include "core/metrics/DisagreementRegions.h"

#include <algorithm>
#include <limits>

namespace delineate::core {

namespace {

void finishRegion(DisagreementRegion& region, const LabelMap& votes,
                  const std::vector<const LabelMap*>& readers,
                  const std::vector<std::uint16_t>& values) {
  std::sort(region.voxels.begin(), region.voxels.end());
  const Size3& s = votes.geometry().size;
  double sum[3] = {0, 0, 0};
  region.marked.assign(readers.size(), 0);
  region.markedBy.assign(readers.size(), std::vector<bool>(region.voxels.size(), false));
  for (std::size_t n = 0; n < region.voxels.size(); ++n) {
    const std::size_t v = region.voxels[n];
    const std::size_t i = v % s[0], j = (v / s[0]) % s[1], k = v / (s[0] * s[1]);
    region.box.include(i, j, k);
    sum[0] += double(i);
    sum[1] += double(j);
    sum[2] += double(k);
    for (std::size_t r = 0; r < readers.size(); ++r) {
      const bool marked = values[r] != 0 && readers[r]->data()[v] == values[r];
      region.markedBy[r][n] = marked;
      region.marked[r] += marked;
    }
  }
  const double n = double(region.voxels.size());
  double best = std::numeric_limits<double>::max();
  for (const std::size_t v : region.voxels) {
    const double d[3] = {double(v % s[0]) - sum[0] / n, double((v / s[0]) % s[1]) - sum[1] / n,
                         double(v / (s[0] * s[1])) - sum[2] / n};
    const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (d2 < best) {
      best = d2;
      region.centre = {v % s[0], (v / s[0]) % s[1], v / (s[0] * s[1])};
    }
  }
}

}  // namespace

std::vector<DisagreementRegion> disagreementRegions(const ReaderVotes& votes,
                                                    const std::vector<const LabelMap*>& readers,
                                                    std::size_t minVoxels, ProgressSink& progress) {
  const LabelMap& map = *votes.map;
  const Size3& s = map.geometry().size;
  const std::uint16_t all = std::uint16_t(votes.readers());
  const std::uint16_t* v = map.data();
  auto disagrees = [&](std::size_t x) { return v[x] != 0 && v[x] < all; };
  std::vector<bool> seen(map.voxelCount(), false);
  std::vector<DisagreementRegion> out;
  std::vector<std::size_t> stack;
  const std::size_t plane = s[0] * s[1];
  for (std::size_t start = 0; start < map.voxelCount(); ++start) {
    if (start % plane == 0) {
      progress.throwIfCancelled();
      progress.report(double(start) / double(map.voxelCount()), "Disagreement regions");
    }
    if (seen[start] || !disagrees(start)) {
      continue;
    }
    DisagreementRegion region;
    seen[start] = true;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t x = stack.back();
      stack.pop_back();
      region.voxels.push_back(x);
      const std::size_t i = x % s[0], j = (x / s[0]) % s[1], k = x / plane;
      const auto visit = [&](std::size_t y) {
        if (!seen[y] && disagrees(y)) {
          seen[y] = true;
          stack.push_back(y);
        }
      };
      if (i > 0)
        visit(x - 1);
      if (i + 1 < s[0])
        visit(x + 1);
      if (j > 0)
        visit(x - s[0]);
      if (j + 1 < s[1])
        visit(x + s[0]);
      if (k > 0)
        visit(x - plane);
      if (k + 1 < s[2])
        visit(x + plane);
    }
    if (region.voxels.size() >= std::max<std::size_t>(1, minVoxels)) {
      finishRegion(region, map, readers, votes.values);
      out.push_back(std::move(region));
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.voxels.size() > b.voxels.size(); });
  progress.report(1.0, "Disagreement regions");
  return out;
}

}  // namespace delineate::core
