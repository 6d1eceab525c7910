#include "annotation/engine/GeodesicCompetition.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "annotation/engine/FaceNeighbours.h"
#include "annotation/engine/RadixHeap.h"

namespace delineate::annotation {

namespace {

constexpr std::size_t kPollEvery = 1 << 16;

std::vector<std::uint8_t> floodFill(const CompetitionInput& in, core::ProgressSink& progress) {
  const std::vector<std::uint8_t>& cand = *in.candidate;
  const core::Size3 n = in.grid->extent();
  std::vector<std::uint8_t> out(cand.size(), 0);
  std::vector<std::size_t> stack;
  for (std::size_t s : in.positiveSeeds) {
    if (cand[s] && !out[s]) {
      out[s] = 1;
      stack.push_back(s);
    }
  }
  std::size_t pops = 0;
  while (!stack.empty()) {
    const std::size_t at = stack.back();
    stack.pop_back();
    forEachFaceNeighbour(at, n, [&](std::size_t nb, int) {
      if (cand[nb] == cand[at] && !out[nb]) {
        out[nb] = 1;
        stack.push_back(nb);
      }
    });
    if (++pops % kPollEvery == 0) {
      progress.throwIfCancelled();
    }
  }
  return out;
}

}  // namespace

std::vector<std::uint8_t> geodesicCompetition(const CompetitionInput& in,
                                              core::ProgressSink& progress) {
  const std::vector<std::uint8_t>& cand = *in.candidate;
  auto anyCandidate = [&](const std::vector<std::size_t>& seeds) {
    return std::any_of(seeds.begin(), seeds.end(), [&](std::size_t s) { return cand[s] != 0; });
  };
  const bool anyNegative = anyCandidate(in.negativeSeeds) || anyCandidate(in.backgroundSeeds);
  if (!anyNegative && !(in.positiveReach < std::numeric_limits<double>::infinity())) {
    return floodFill(in, progress);
  }
  const core::Size3 n = in.grid->extent();
  const std::vector<float>& v = *in.values;
  const double scale = in.edgeWeight / std::max(in.sd, 1e-12);
  const float step[3] = {float(in.grid->spacing[0]), float(in.grid->spacing[1]),
                         float(in.grid->spacing[2])};

  constexpr float kFar = std::numeric_limits<float>::infinity();
  std::vector<float> dist(cand.size(), kFar);
  std::vector<std::uint8_t> owner(cand.size(), 0);  // 1 positive, 2 negative, 3 background
  RadixHeap heap;
  auto seed = [&](std::size_t s, std::uint8_t who) {
    if (cand[s]) {
      dist[s] = 0;
      owner[s] = who;
      heap.push(0.0f, std::uint32_t(s));
    }
  };
  for (std::size_t s : in.backgroundSeeds) {
    seed(s, 3);
  }
  for (std::size_t s : in.positiveSeeds) {
    seed(s, 1);  // a click on the border is the user's
  }
  for (std::size_t s : in.negativeSeeds) {
    seed(s, 2);  // a voxel clicked both ways is negative: the later correction wins
  }
  const float reach[4] = {0, float(std::min(in.positiveReach, 1e30)),
                          float(std::min(in.negativeReach, 1e30)), 1e30f};
  std::size_t pops = 0;
  while (!heap.empty()) {
    const auto [d, at] = heap.pop();
    if (d > dist[at]) {
      continue;
    }
    const float va = v[at];
    forEachFaceNeighbour(at, n, [&](std::size_t nb, int axis) {
      if (cand[nb] != cand[at]) {
        return;
      }
      const float nd = d + step[axis] * float(1.0 + scale * std::abs(double(v[nb] - va)));
      if (nd > reach[owner[at]]) {
        return;
      }
      if (nd < dist[nb]) {
        dist[nb] = nd;
        owner[nb] = owner[at];
        heap.push(nd, std::uint32_t(nb));
      }
    });
    if (++pops % kPollEvery == 0) {
      progress.throwIfCancelled();
    }
  }
  std::vector<std::uint8_t> out(cand.size(), 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = owner[i] == 1 ? 1 : 0;
  }
  return out;
}

}  // namespace delineate::annotation
