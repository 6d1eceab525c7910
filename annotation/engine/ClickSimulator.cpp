#include "annotation/engine/ClickSimulator.h"

#include <itkSignedMaurerDistanceMapImageFilter.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "annotation/engine/FaceNeighbours.h"
#include "annotation/ops/ItkMask.h"

namespace delineate::annotation {

namespace {

struct Region {
  std::vector<std::size_t> voxels;  // work-array indices over the error box
  core::VoxelBox box;               // in volume indices
  bool miss = true;
};

// The largest 6-connected region of `label` values in `err` (over `grid`), by voxel count; the
// first found in x-fastest order on a tie.
Region largestRegion(const std::vector<std::uint8_t>& err, const core::VoxelBox& grid,
                     std::uint8_t label) {
  const core::Size3 n{grid.hi[0] - grid.lo[0], grid.hi[1] - grid.lo[1], grid.hi[2] - grid.lo[2]};
  const std::size_t nx = n[0], nxy = n[0] * n[1];
  std::vector<std::uint8_t> seen(err.size(), 0);
  Region best;
  std::vector<std::size_t> stack;
  for (std::size_t start = 0; start < err.size(); ++start) {
    if (err[start] != label || seen[start]) {
      continue;
    }
    Region r;
    seen[start] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t at = stack.back();
      stack.pop_back();
      r.voxels.push_back(at);
      const std::size_t x = at % nx, y = (at / nx) % n[1], z = at / nxy;
      r.box.include(grid.lo[0] + x, grid.lo[1] + y, grid.lo[2] + z);
      auto visit = [&](std::size_t nb) {
        if (err[nb] == label && !seen[nb]) {
          seen[nb] = 1;
          stack.push_back(nb);
        }
      };
      forEachFaceNeighbour(at, n, [&](std::size_t nb, int) { visit(nb); });
    }
    if (r.voxels.size() > best.voxels.size()) {
      best = std::move(r);
    }
  }
  return best;
}

// The voxel of `region` farthest (in mm) from the region's outside; the one nearest the
// region's centroid among equally far ones.
core::Size3 regionCentre(const Region& region, const core::VoxelBox& grid,
                         const core::Vec3& spacing) {
  const core::Size3 n{grid.hi[0] - grid.lo[0], grid.hi[1] - grid.lo[1], grid.hi[2] - grid.lo[2]};
  BoxMask mask(region.box);
  double centroid[3] = {0, 0, 0};
  for (std::size_t at : region.voxels) {
    const core::Size3 v{grid.lo[0] + at % n[0], grid.lo[1] + (at / n[0]) % n[1],
                        grid.lo[2] + at / (n[0] * n[1])};
    mask.set(v[0], v[1], v[2]);
    for (int a = 0; a < 3; ++a) {
      centroid[a] += double(v[a]) / double(region.voxels.size());
    }
  }
  using Image = detail::MaskImage<3>;
  using Distance = itk::Image<float, 3>;
  detail::Offset3 imageLo{};
  Image::Pointer input = detail::toItkImage(mask, {1, 1, 1}, spacing, &imageLo);
  auto maurer = itk::SignedMaurerDistanceMapImageFilter<Image, Distance>::New();
  maurer->SetInput(input);
  maurer->SetUseImageSpacing(true);
  maurer->SetSquaredDistance(false);
  maurer->SetInsideIsPositive(true);
  maurer->SetBackgroundValue(0);
  maurer->SetNumberOfWorkUnits(1);  // deterministic and small
  maurer->Update();
  const Distance& d = *maurer->GetOutput();
  const auto size = d.GetBufferedRegion().GetSize();
  const float* px = d.GetBufferPointer();

  core::Size3 best = region.box.lo;
  float bestDistance = -std::numeric_limits<float>::infinity();
  double bestToCentroid = std::numeric_limits<double>::infinity();
  for (std::size_t k = region.box.lo[2]; k < region.box.hi[2]; ++k) {
    for (std::size_t j = region.box.lo[1]; j < region.box.hi[1]; ++j) {
      for (std::size_t i = region.box.lo[0]; i < region.box.hi[0]; ++i) {
        if (!mask.at(i, j, k)) {
          continue;
        }
        const std::size_t x = std::size_t(std::ptrdiff_t(i) - imageLo[0]);
        const std::size_t y = std::size_t(std::ptrdiff_t(j) - imageLo[1]);
        const std::size_t z = std::size_t(std::ptrdiff_t(k) - imageLo[2]);
        const float dist = px[x + size[0] * (y + size[1] * z)];
        double toCentroid = 0;
        const double v[3] = {double(i), double(j), double(k)};
        for (int a = 0; a < 3; ++a) {
          toCentroid += (v[a] - centroid[a]) * (v[a] - centroid[a]) * spacing[a] * spacing[a];
        }
        if (dist > bestDistance + 1e-4f ||
            (dist > bestDistance - 1e-4f && toCentroid < bestToCentroid)) {
          best = {i, j, k};
          bestDistance = std::max(bestDistance, dist);
          bestToCentroid = toCentroid;
        }
      }
    }
  }
  return best;
}

}  // namespace

std::optional<int> ClickSimulation::clicksToReach(double target) const {
  for (std::size_t i = 0; i < clicks.size(); ++i) {
    if (clicks[i].dice >= target) {
      return int(i + 1);
    }
  }
  return std::nullopt;
}

double ClickSimulation::meanSeconds() const {
  double sum = 0;
  for (const SimulatedClick& c : clicks) {
    sum += c.seconds;
  }
  return clicks.empty() ? 0 : sum / double(clicks.size());
}

double ClickSimulation::maxSeconds() const {
  double m = 0;
  for (const SimulatedClick& c : clicks) {
    m = std::max(m, c.seconds);
  }
  return m;
}

double dice(const BoxMask& a, const BoxMask& b) {
  const std::size_t na = a.count(), nb = b.count();
  if (na + nb == 0) {
    return 1;
  }
  const core::VoxelBox common = intersection(a.box, b.box);
  std::size_t both = 0;
  for (std::size_t k = common.lo[2]; k < common.hi[2]; ++k) {
    for (std::size_t j = common.lo[1]; j < common.hi[1]; ++j) {
      const std::uint8_t* ra = a.bits.data() + a.index(common.lo[0], j, k);
      const std::uint8_t* rb = b.bits.data() + b.index(common.lo[0], j, k);
      for (std::size_t i = 0; i < common.hi[0] - common.lo[0]; ++i) {
        both += ra[i] & rb[i];
      }
    }
  }
  return 2.0 * double(both) / double(na + nb);
}

BoxMask maskOfLabel(const core::Volume& labels, std::uint16_t label) {
  const core::Size3& n = labels.geometry().size;
  BoxMask all(core::VoxelBox::whole(n));
  core::dispatchScalar(labels.scalarType(), [&](auto tag) {
    using T = decltype(tag);
    const T* data = labels.template data<T>();
    for (std::size_t i = 0; i < all.bits.size(); ++i) {
      all.bits[i] = data[i] == T(label) ? 1 : 0;
    }
  });
  return all.shrunkToContent();
}

namespace {

// The structure's tight rectangle on slice `at` along `axis`.
core::VoxelBox sliceBox(const BoxMask& truth, int axis, std::size_t slice) {
  const core::VoxelBox& b = truth.box;
  core::VoxelBox out;
  for (std::size_t k = b.lo[2]; k < b.hi[2]; ++k) {
    for (std::size_t j = b.lo[1]; j < b.hi[1]; ++j) {
      for (std::size_t i = b.lo[0]; i < b.hi[0]; ++i) {
        const std::size_t at[3] = {i, j, k};
        if (at[axis] == slice && truth.at(i, j, k)) {
          out.include(i, j, k);
        }
      }
    }
  }
  return out;
}

}  // namespace

core::VoxelBox largestSliceBox(const BoxMask& truth, int axis) {
  const core::VoxelBox& b = truth.box;
  const std::size_t a = std::size_t(axis);
  std::vector<std::size_t> perSlice(b.hi[a] - std::min(b.lo[a], b.hi[a]), 0);
  for (std::size_t k = b.lo[2]; k < b.hi[2]; ++k) {
    for (std::size_t j = b.lo[1]; j < b.hi[1]; ++j) {
      for (std::size_t i = b.lo[0]; i < b.hi[0]; ++i) {
        const std::size_t at[3] = {i, j, k};
        perSlice[at[a] - b.lo[a]] += truth.at(i, j, k);
      }
    }
  }
  if (perSlice.empty()) {
    return {};
  }
  return sliceBox(
      truth, axis,
      b.lo[a] + std::size_t(std::max_element(perSlice.begin(), perSlice.end()) - perSlice.begin()));
}

core::VoxelBox middleSliceBox(const BoxMask& truth, int axis) {
  const BoxMask tight = truth.shrunkToContent();
  if (tight.none()) {
    return {};
  }
  const std::size_t a = std::size_t(axis);
  const core::VoxelBox out = sliceBox(tight, axis, (tight.box.lo[a] + tight.box.hi[a] - 1) / 2);
  return out.empty() ? largestSliceBox(tight, axis) : out;
}

ClickSimulator::ClickSimulator(BoxMask truth, const core::Vec3& spacing,
                               ClickSimulatorOptions options)
    : truth_(truth.shrunkToContent()), spacing_(spacing), options_(options) {}

std::optional<GuidanceClick> ClickSimulator::nextClick(const BoxMask& prediction) const {
  core::VoxelBox grid = truth_.box;
  grid.include(prediction.contentBox());
  if (grid.empty()) {
    return std::nullopt;
  }
  // 1 = miss (in the truth, not predicted), 2 = false positive.
  BoxMask t = truth_.reboxed(grid), p = prediction.reboxed(grid);
  std::vector<std::uint8_t> err(t.bits.size());
  for (std::size_t i = 0; i < err.size(); ++i) {
    err[i] = t.bits[i] == p.bits[i] ? 0 : t.bits[i] ? 1 : 2;
  }
  Region miss = largestRegion(err, grid, 1);
  Region extra = largestRegion(err, grid, 2);
  if (miss.voxels.empty() && extra.voxels.empty()) {
    return std::nullopt;
  }
  const bool positive = miss.voxels.size() >= extra.voxels.size();
  return GuidanceClick{regionCentre(positive ? miss : extra, grid, spacing_), positive};
}

ClickSimulation ClickSimulator::run(const GuidedSegmentation& segment,
                                    core::ProgressSink& progress) const {
  ClickSimulation sim;
  Guidance guidance;
  BoxMask prediction;
  for (int c = 0; c < options_.maxClicks; ++c) {
    progress.throwIfCancelled();
    const std::optional<GuidanceClick> click = nextClick(prediction);
    if (!click) {
      break;
    }
    guidance.clicks.push_back(*click);
    const auto t0 = std::chrono::steady_clock::now();
    prediction = segment(guidance);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    sim.clicks.push_back({*click, dice(prediction, truth_), seconds});
    progress.report(double(c + 1) / options_.maxClicks, "Simulating clicks");
    if (sim.clicks.back().dice >= options_.stopAtDice) {
      break;
    }
  }
  return sim;
}

}  // namespace delineate::annotation
