#include "annotation/engine/AutoSegmenter.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "annotation/engine/FaceNeighbours.h"
#include "annotation/engine/HistogramModes.h"
#include "annotation/engine/HoleFilling.h"
#include "annotation/engine/PointGuidedSegmenter.h"
#include "annotation/engine/RoiImage.h"
#include "annotation/engine/WorkMorphology.h"

namespace delineate::annotation {

namespace {

// Extra white-matter clicks at most, and the smallest missed part worth one.
constexpr int kWhiteMatterRounds = 4;
constexpr std::size_t kMinMissedVoxels = 2000;

struct Tissues {
  double csf = 0, grey = 0, white = 0;
  bool found = false;
};

// Modes of `values` (SD `sd`) holding at least `share` of them, with the count on each hill.
std::vector<std::pair<HistogramMode, double>> modesWithMass(const std::vector<float>& values,
                                                            double sd, double share) {
  std::vector<std::pair<HistogramMode, double>> out;
  for (const HistogramMode& m : histogramModes(values, sd, 0.3, share * double(values.size()))) {
    out.push_back({m, 0.0});
  }
  for (float v : values) {
    for (auto& [m, mass] : out) {
      mass += v >= m.lo && v <= m.hi;
    }
  }
  return out;
}

// CSF, grey and white matter. White matter holds the most flat voxels in the middle of the
// head and CSF is their darkest mode; grey matter, a thin ribbon with few flat voxels, is the
// fullest mode of all voxels between the two.
Tissues findTissues(const RoiImage& roi) {
  std::vector<float> flat;
  for (std::size_t i = 0; i < roi.smooth.size(); ++i) {
    if (roi.flat(i)) {
      flat.push_back(roi.smooth[i]);
    }
  }
  const auto flatModes = modesWithMass(flat, roi.smoothNoiseSd, 0.002);
  if (flatModes.size() < 2) {
    return {};
  }
  const auto white =
      std::max_element(flatModes.begin(), flatModes.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  Tissues t;
  t.white = white->first.value;
  t.csf = flatModes.front().first.value;
  if (!(t.csf < t.white)) {
    return {};
  }
  t.grey = 0.5 * (t.csf + t.white);
  double best = 0;
  const double margin = 0.2 * (t.white - t.csf);
  for (const auto& [m, mass] : modesWithMass(roi.smooth, roi.smoothNoiseSd, 0.002)) {
    if (m.value > t.csf + margin && m.value < t.white - margin && mass > best) {
      t.grey = m.value;
      best = mass;
    }
  }
  t.found = true;
  return t;
}

// The voxel nearest the middle of the box whose cube of radius `reach` holds values within
// `tolerance` of `value` only (nullopt when none does).
std::optional<core::Size3> deepVoxel(const RoiImage& roi, double value, double tolerance,
                                     std::size_t reach) {
  const RoiGrid& grid = roi.grid;
  const core::Size3 n = grid.extent();
  std::optional<core::Size3> best;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (std::size_t z = reach; z + reach < n[2]; ++z) {
    for (std::size_t y = reach; y + reach < n[1]; ++y) {
      for (std::size_t x = reach; x + reach < n[0]; ++x) {
        const double dx = (double(x) - 0.5 * double(n[0])) * grid.spacing[0];
        const double dy = (double(y) - 0.5 * double(n[1])) * grid.spacing[1];
        const double dz = (double(z) - 0.5 * double(n[2])) * grid.spacing[2];
        const double d = dx * dx + dy * dy + dz * dz;
        if (d >= bestDistance ||
            std::abs(roi.smooth[x + n[0] * (y + n[1] * z)] - value) > tolerance) {
          continue;
        }
        bool inside = true;
        for (std::size_t k = z - reach; inside && k <= z + reach; ++k) {
          for (std::size_t j = y - reach; inside && j <= y + reach; ++j) {
            for (std::size_t i = x - reach; inside && i <= x + reach; ++i) {
              inside = std::abs(roi.smooth[i + n[0] * (j + n[1] * k)] - value) <= tolerance;
            }
          }
        }
        if (inside) {
          best = core::Size3{grid.box.lo[0] + x, grid.box.lo[1] + y, grid.box.lo[2] + z};
          bestDistance = d;
        }
      }
    }
  }
  return best;
}

struct Component {
  std::vector<std::size_t> voxels;  // work-array indices
  double centroid[3] = {0, 0, 0};   // in work-array voxel coordinates
};

// The 6-connected components of `mask` (a block of size n), largest first.
std::vector<Component> components(const std::vector<std::uint8_t>& mask, const core::Size3& n) {
  const std::size_t nx = n[0], nxy = n[0] * n[1];
  std::vector<std::uint8_t> seen(mask.size(), 0);
  std::vector<Component> out;
  std::vector<std::size_t> stack;
  for (std::size_t start = 0; start < mask.size(); ++start) {
    if (!mask[start] || seen[start]) {
      continue;
    }
    Component c;
    seen[start] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t at = stack.back();
      stack.pop_back();
      c.voxels.push_back(at);
      const std::size_t x = at % nx, y = (at / nx) % n[1], z = at / nxy;
      c.centroid[0] += double(x);
      c.centroid[1] += double(y);
      c.centroid[2] += double(z);
      auto visit = [&](std::size_t nb) {
        if (mask[nb] && !seen[nb]) {
          seen[nb] = 1;
          stack.push_back(nb);
        }
      };
      forEachFaceNeighbour(at, n, [&](std::size_t nb, int) { visit(nb); });
    }
    for (double& v : c.centroid) {
      v /= double(c.voxels.size());
    }
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(), [](const Component& a, const Component& b) {
    return a.voxels.size() > b.voxels.size();
  });
  return out;
}

// The component's voxel nearest its centroid, as a volume voxel.
core::Size3 centreVoxel(const Component& c, const RoiGrid& grid) {
  const core::Size3 n = grid.extent();
  std::size_t best = c.voxels.front();
  double bestDistance = std::numeric_limits<double>::infinity();
  for (std::size_t at : c.voxels) {
    const double p[3] = {double(at % n[0]), double((at / n[0]) % n[1]), double(at / (n[0] * n[1]))};
    double d = 0;
    for (int a = 0; a < 3; ++a) {
      d += (p[a] - c.centroid[a]) * (p[a] - c.centroid[a]);
    }
    if (d < bestDistance) {
      best = at;
      bestDistance = d;
    }
  }
  return grid.voxel(best);
}

BoxMask maskOf(const RoiGrid& grid, const std::vector<std::size_t>& voxels) {
  BoxMask m(grid.box);
  for (std::size_t at : voxels) {
    m.bits[at] = 1;
  }
  return m.shrunkToContent();
}

}  // namespace

std::vector<AutoSegment> AutoSegmenter::segmentBrainMr(const core::Volume& image,
                                                       core::ProgressSink& progress) const {
  const core::Size3& n = image.geometry().size;
  std::vector<AutoSegment> out;
  // No hole filling: the ventricles and hippocampi are cavities of the white matter.
  SegmenterOptions options = options_;
  options.maxHoleFraction = 0;
  const PointGuidedSegmenter segmenter(options);
  SmoothedImageCache& cache = *PointGuidedSegmenter::sharedCache();

  // The middle of the head: half of each axis.
  const core::VoxelBox middle{{n[0] / 4, n[1] / 4, n[2] / 4},
                              {n[0] - n[0] / 4, n[1] - n[1] / 4, n[2] - n[2] / 4}};
  core::SubProgress first(progress, 0, 0.2);
  const RoiImage centre = makeRoiImage(image, middle, 0, cache, first);
  const Tissues t = findTissues(centre);
  if (!t.found) {
    return out;
  }

  // White matter: a click deep inside it, then, as long as some large part of the middle still
  // looks like white matter but lies outside the result, a click in the middle of that part
  // (the bias field of a receive coil makes white matter brighter in some parts than others).
  core::SubProgress wmProgress(progress, 0.2, 0.6);
  const double wmTolerance = 0.15 * (t.white - t.grey);
  BoxMask white;
  if (const auto seed = deepVoxel(centre, t.white, wmTolerance, 3)) {
    Guidance wm;
    wm.add(*seed, true);
    for (int round = 0;; ++round) {
      white = segmenter.segment(image, wm, wmProgress);
      if (round == kWhiteMatterRounds) {
        break;
      }
      std::vector<std::uint8_t> missed(centre.smooth.size(), 0);
      for (std::size_t i = 0; i < missed.size(); ++i) {
        const core::Size3 v = centre.grid.voxel(i);
        missed[i] = std::abs(centre.smooth[i] - t.white) <= wmTolerance && centre.flat(i) &&
                    !white.at(v[0], v[1], v[2]);
      }
      const std::vector<Component> parts = components(missed, centre.grid.extent());
      if (parts.empty() || parts.front().voxels.size() < kMinMissedVoxels) {
        break;
      }
      wm.add(centreVoxel(parts.front(), centre.grid), true);
    }
    out.push_back({"White matter", white});
  }

  // Lateral ventricles: one click in each of the two largest CSF blobs of the middle.
  core::SubProgress ventProgress(progress, 0.6, 0.8);
  const double csfTolerance = 0.15 * (t.grey - t.csf);
  std::vector<std::uint8_t> csf(centre.smooth.size(), 0);
  for (std::size_t i = 0; i < csf.size(); ++i) {
    csf[i] = std::abs(centre.smooth[i] - t.csf) <= csfTolerance && centre.flat(i);
  }
  Guidance ventricles;
  for (const Component& c : components(csf, centre.grid.extent())) {
    if (ventricles.clicks.size() == 2 || c.voxels.size() < 50) {
      break;
    }
    ventricles.add(centreVoxel(c, centre.grid), true);
  }
  if (!ventricles.clicks.empty()) {
    out.push_back({"Lateral ventricles", segmenter.segment(image, ventricles, ventProgress)});
  }

  // Hippocampi: blobs of grey-matter intensity deep in the brain, apart from the cortical
  // ribbon (the opening breaks the partial-volume rims that join them), one on each side of the
  // midline 15-45 mm out, below the ventricles.
  if (!white.none()) {
    core::SubProgress hipProgress(progress, 0.8, 1.0);
    const core::VoxelBox box = padded(white.box, {2, 2, 2}, n);
    const RoiImage roi = makeRoiImage(image, box, 0, cache, hipProgress);
    const double lo = 0.5 * (t.csf + t.grey), hi = 0.5 * (t.grey + t.white);
    std::vector<std::uint8_t> grey(roi.smooth.size(), 0), band(roi.smooth.size(), 0);
    for (std::size_t i = 0; i < grey.size(); ++i) {
      band[i] = roi.smooth[i] >= lo && roi.smooth[i] <= hi;
    }
    grey = band;
    openCube(grey, roi.grid.extent(), 1);
    const core::Vec3& sp = image.geometry().spacing;
    const double midline = 0.5 * double(n[0] - 1);
    double ventricleZ = 0.5 * double(n[2]);
    if (!ventricles.clicks.empty()) {
      ventricleZ = double(ventricles.clicks.front().voxel[2]);
    }
    bool sideDone[2] = {false, false};
    for (const Component& c : components(grey, roi.grid.extent())) {
      if (c.voxels.size() < 300) {
        break;
      }
      const double x = double(box.lo[0]) + c.centroid[0];
      const double z = double(box.lo[2]) + c.centroid[2];
      const double lateral = std::abs(x - midline) * sp[0];
      if (c.voxels.size() > 20000 || lateral < 15 || lateral > 45 || z >= ventricleZ) {
        continue;
      }
      // +x is the patient's left in LPS.
      const int side = x > midline ? 0 : 1;
      if (!sideDone[side]) {
        sideDone[side] = true;
        std::vector<std::uint8_t> blob(grey.size(), 0);
        for (std::size_t at : c.voxels) {
          blob[at] = 1;
        }
        growWithin(blob, band, roi.grid.extent(), 2);
        fillHoles(blob, roi.grid.extent(), {}, 0.2);
        std::vector<std::size_t> voxels;
        for (std::size_t i = 0; i < blob.size(); ++i) {
          if (blob[i]) {
            voxels.push_back(i);
          }
        }
        out.push_back(
            {side == 0 ? "Left hippocampus" : "Right hippocampus", maskOf(roi.grid, voxels)});
      }
    }
  }
  progress.report(1.0, "Automatic segmentation");
  return out;
}

}  // namespace delineate::annotation
