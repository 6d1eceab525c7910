#include "annotation/engine/IntensityModel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "annotation/engine/FaceNeighbours.h"
#include "annotation/engine/HistogramModes.h"

namespace delineate::annotation {

namespace {

// A mode's hill must hold this share of the shell's flat voxels (of the region's, without a
// shell), so that a few stray voxels do not pass for a neighbouring tissue.
constexpr double kMinModeShare = 0.03;
constexpr double kMinModeProminence = 0.3;
// Two tissues at most this far apart (in noise SDs) count as one where the histogram shows a
// mode between them.
constexpr double kMergeSd = 30.0;
// A click is inside a tissue when the cube of this radius (voxels) around it holds that tissue
// only; a later positive click must be, to add a tissue of its own. A structure too small for
// that cube (a lesion 15 mm across is three 2.5 mm slices, whose outer ones are partial volume)
// is still inside at its centre when the cube of kSmallInsideReach holds its tissue only and no
// edge (RoiImage::flat): an edge click's cube always holds one.
constexpr std::size_t kInsideReach = 2;
constexpr std::size_t kSmallInsideReach = 1;
// How far (in noise SDs) a band may reach on a side where no neighbouring tissue shows.
constexpr double kMaxHillSd = 12.0;
// A negative click this close to a tissue's value (in noise SDs) is on that tissue.
constexpr double kSameTissueSd = 3.5;

// The smoothed values of the flat voxels (RoiImage::flat) of the region and of the
// voxels within `steps` face steps of it: tissue interiors, without the partial-volume voxels
// of the edges between them. `shellCount` receives how many come from the shell.
std::vector<float> flatValuesAround(const RoiImage& roi, const std::vector<std::uint8_t>& region,
                                    int steps, std::size_t& shellCount) {
  const core::Size3 n = roi.grid.extent();
  std::vector<std::uint8_t> seen(region);
  std::vector<std::size_t> front, next;
  std::vector<float> values;
  for (std::size_t i = 0; i < region.size(); ++i) {
    if (region[i]) {
      front.push_back(i);
      if (roi.flat(i)) {
        values.push_back(roi.smooth[i]);
      }
    }
  }
  shellCount = 0;
  for (int s = 0; s < steps; ++s) {
    next.clear();
    auto visit = [&](std::size_t nb) {
      if (!seen[nb]) {
        seen[nb] = 1;
        next.push_back(nb);
        if (roi.flat(nb)) {
          values.push_back(roi.smooth[nb]);
          ++shellCount;
        }
      }
    };
    for (std::size_t at : front) {
      forEachFaceNeighbour(at, n, [&](std::size_t nb, int) { visit(nb); });
    }
    front.swap(next);
  }
  return values;
}

// Whether the cube of radius `reach` around volume voxel v (clipped to the region of interest)
// holds values within `tolerance` of `value` only (and, with `flatOnly`, no edge voxel): the
// click lies well inside a tissue, not on an edge, in a thin rim of partial volume or in a
// texture.
bool isInsideTissue(const RoiImage& roi, const core::Size3& v, double value, double tolerance,
                    std::size_t reach, bool flatOnly) {
  const core::VoxelBox& box = roi.grid.box;
  for (std::size_t k = std::max(v[2], box.lo[2] + reach) - reach;
       k <= v[2] + reach && k < box.hi[2]; ++k) {
    for (std::size_t j = std::max(v[1], box.lo[1] + reach) - reach;
         j <= v[1] + reach && j < box.hi[1]; ++j) {
      for (std::size_t i = std::max(v[0], box.lo[0] + reach) - reach;
           i <= v[0] + reach && i < box.hi[0]; ++i) {
        const std::size_t at = roi.grid.index({i, j, k});
        if (std::abs(roi.smooth[at] - value) > tolerance || (flatOnly && !roi.flat(at))) {
          return false;
        }
      }
    }
  }
  return true;
}

// The mode nearest to v within `within`, or nullptr.
const HistogramMode* nearestWithin(const std::vector<HistogramMode>& modes, double v,
                                   double within) {
  const HistogramMode* best = nullptr;
  for (const HistogramMode& m : modes) {
    if (std::abs(m.value - v) <= within &&
        (!best || std::abs(m.value - v) < std::abs(best->value - v))) {
      best = &m;
    }
  }
  return best;
}

}  // namespace

double clickValue(const RoiImage& roi, const core::Size3& v) {
  const core::VoxelBox& box = roi.grid.box;
  std::vector<float> values;
  values.reserve(27);
  for (std::size_t k = std::max(v[2], box.lo[2] + 1) - 1; k <= v[2] + 1 && k < box.hi[2]; ++k) {
    for (std::size_t j = std::max(v[1], box.lo[1] + 1) - 1; j <= v[1] + 1 && j < box.hi[1]; ++j) {
      for (std::size_t i = std::max(v[0], box.lo[0] + 1) - 1; i <= v[0] + 1 && i < box.hi[0]; ++i) {
        values.push_back(roi.smooth[roi.grid.index({i, j, k})]);
      }
    }
  }
  if (values.empty()) {
    return 0;
  }
  auto mid = values.begin() + std::ptrdiff_t(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

IntensityModel::IntensityModel(const RoiImage& roi, const std::vector<GuidanceClick>& clicks,
                               double bandSd)
    : sd_(roi.smoothNoiseSd), core_(bandSd * roi.smoothNoiseSd) {
  for (const GuidanceClick& c : clicks) {
    if (!roi.grid.contains(c.voxel)) {
      continue;
    }
    const double v = clickValue(roi, c.voxel);
    const bool inside = isInsideTissue(roi, c.voxel, v, 2 * core_, kInsideReach, false) ||
                        isInsideTissue(roi, c.voxel, v, 2 * core_, kSmallInsideReach, true);
    clicks_.push_back({c.voxel, v, c.positive, inside});
    const bool known = std::any_of(tissues_.begin(), tissues_.end(),
                                   [&](const Tissue& t) { return std::abs(v - t.value) <= core_; });
    if (c.positive && !known) {
      tissues_.push_back({v, inside, c.voxel});
      founders_.push_back(c.voxel);
      bands_.push_back({v, v - core_, v + core_});
    }
  }
  assignGroups();
}

void IntensityModel::assignGroups() {
  std::vector<IntensityBand*> sorted;
  for (IntensityBand& b : bands_) {
    sorted.push_back(&b);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const IntensityBand* a, const IntensityBand* b) { return a->centre < b->centre; });
  std::uint8_t group = 0;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i == 0 || sorted[i]->centre - sorted[i - 1]->centre > kMergeSd * sd_) {
      group = std::uint8_t(std::min(255, group + 1));
    }
    sorted[i]->group = group;
  }
}

std::uint8_t IntensityModel::nearestGroup(double value) const {
  const IntensityBand* nearest = nullptr;
  for (const IntensityBand& b : bands_) {
    if (!nearest || std::abs(value - b.centre) < std::abs(value - nearest->centre)) {
      nearest = &b;
    }
  }
  return nearest ? nearest->group : 0;
}

IntensityModel IntensityModel::refined(const RoiImage& roi, const std::vector<std::uint8_t>& region,
                                       int shellVoxels) const {
  IntensityModel out = *this;
  out.bands_.clear();
  out.founders_.clear();
  if (tissues_.empty()) {
    return out;
  }
  // Modes of the region and its shell together: a neighbour shows as a mode of its own only
  // where a valley separates it from the tissue; values the core band merely cut off do not.
  std::size_t shellCount = 0;
  const std::vector<float> values = flatValuesAround(roi, region, shellVoxels, shellCount);
  const std::vector<HistogramMode> modes = histogramModes(
      values, sd_, kMinModeProminence,
      std::max(10.0, kMinModeShare * double(shellVoxels > 0 ? shellCount : values.size())));

  struct Centre {
    double value;
    bool tissue;
    double hillLo = 0, hillHi = 0;  // of the tissue's mode (its own value when none)
  };
  std::vector<Centre> centres;
  auto nearCentre = [&](double v, double within, bool tissue) {
    return std::any_of(centres.begin(), centres.end(), [&](const Centre& c) {
      return c.tissue == tissue && std::abs(v - c.value) <= within;
    });
  };
  // Tissues: the first positive value, and every other one clicked well inside a tissue (a
  // kidney's parenchyma after its sinus, white matter drifting with an MR bias field). A later
  // click on an edge never brings in a whole tissue, only a local range.
  for (std::size_t t = 0; t < tissues_.size(); ++t) {
    // The tissue's mode: one within the core band, else a broad one (a tissue spread by a bias
    // field and partial volume) whose central half holds the value.
    const double tv = tissues_[t].value;
    const HistogramMode* mode = nearestWithin(modes, tv, core_);
    for (const HistogramMode& m : modes) {
      if (!mode && m.lo <= tv && tv <= m.hi && std::abs(tv - m.value) <= 0.25 * (m.hi - m.lo)) {
        mode = &m;
      }
    }
    const double value = mode ? mode->value : tv;
    if (t > 0 && !tissues_[t].inside) {
      continue;  // a click on an edge or in a thin rim: see localRanges_ below
    }
    out.founders_.push_back(tissues_[t].voxel);
    if (!nearCentre(value, 1e-9, true)) {
      centres.push_back({value, true, mode ? mode->lo : value, mode ? mode->hi : value});
    }
  }
  // Neighbours: the other modes, except those a positive click inside a tissue sits on, and
  // those between two such values close enough to be one tissue seen at two values (an MR bias
  // field, a broad cortex split in two by the histogram); and negative clicks on another tissue.
  std::vector<double> anchors;
  for (const Centre& c : centres) {
    anchors.push_back(c.value);
  }
  for (const ClickValue& c : clicks_) {
    if (c.positive && c.inside) {
      anchors.push_back(c.value);
    }
  }
  auto structureValue = [&](double v) {
    for (double a : anchors) {
      if (std::abs(v - a) <= core_) {
        return true;
      }
      for (double b : anchors) {
        if (a < v && v < b && b - a <= kMergeSd * sd_) {
          return true;
        }
      }
    }
    return false;
  };
  for (const HistogramMode& m : modes) {
    if (!structureValue(m.value)) {
      centres.push_back({m.value, false});
    }
  }

  for (const ClickValue& c : clicks_) {
    // A negative click on the structure's own tissue (within its noise), or on an edge, is
    // separated from it by geodesic competition: a local cut. One inside another tissue makes
    // that tissue (its mode, if any) a neighbour: a cut at half way, everywhere.
    if (c.positive || !c.inside || nearCentre(c.value, kSameTissueSd * sd_, true)) {
      continue;
    }
    const HistogramMode* mode = nearestWithin(modes, c.value, core_);
    const double value = mode && !nearCentre(mode->value, core_, true) ? mode->value : c.value;
    if (!nearCentre(value, 1e-9, false)) {
      centres.push_back({value, false});
    }
  }
  std::sort(centres.begin(), centres.end(),
            [](const Centre& a, const Centre& b) { return a.value < b.value; });

  const double kInf = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < centres.size(); ++i) {
    if (!centres[i].tissue) {
      continue;
    }
    const double c = centres[i].value;
    double lower = i > 0 ? centres[i - 1].value : -kInf;
    double upper = i + 1 < centres.size() ? centres[i + 1].value : kInf;
    // A neighbour seen before stays one where the histogram now shows none on that side (the
    // flat voxels of a thin region's shell may hold too few of it to make a mode), if it lies
    // too far to be the tissue itself seen at another value (kMergeSd).
    const IntensityBand* before = nullptr;
    for (const IntensityBand& b : bands_) {
      if (std::abs(b.centre - c) <= core_ &&
          (!before || std::abs(b.centre - c) < std::abs(before->centre - c))) {
        before = &b;
      }
    }
    if (before && lower == -kInf && before->lowerNeighbour < c - kMergeSd * sd_) {
      lower = before->lowerNeighbour;
    }
    if (before && upper == kInf && before->upperNeighbour > c + kMergeSd * sd_) {
      upper = before->upperNeighbour;
    }
    double below = std::isfinite(lower) ? 0.5 * (c - lower) : kInf;
    double above = std::isfinite(upper) ? 0.5 * (upper - c) : kInf;
    // Without a neighbour on one side, that side reaches to the end of the tissue's hill (at
    // least two core bands, at most kMaxHillSd): a tissue whose value drifts (an MR bias
    // field) spreads its hill step by step as the region grows, and a neighbour the histogram
    // merged into the hill is not swallowed whole.
    if (below == kInf) {
      below = std::min(std::max(c - centres[i].hillLo, 2 * core_), kMaxHillSd * sd_);
    }
    if (above == kInf) {
      above = std::min(std::max(centres[i].hillHi - c, 2 * core_), kMaxHillSd * sd_);
    }
    out.bands_.push_back({c, c - below, c + above, 1, lower, upper});
  }
  out.assignGroups();

  // Positive clicks whose value is in no band (partial volume at an edge): a local range from
  // the nearest band's edge to just past the click's value. (Negative clicks of that kind stay
  // in their band and compete geodesically: also a local cut.)
  out.localRanges_.clear();
  for (const ClickValue& c : clicks_) {
    if (!c.positive || out.candidate(float(c.value))) {
      continue;
    }
    const IntensityBand* nearest = nullptr;
    for (const IntensityBand& b : out.bands_) {
      if (!nearest || std::abs(c.value - b.centre) < std::abs(c.value - nearest->centre)) {
        nearest = &b;
      }
    }
    if (nearest && c.value < nearest->lo) {
      out.localRanges_.push_back({c.voxel, c.value - sd_, nearest->lo, nearest->group});
    } else if (nearest) {
      out.localRanges_.push_back({c.voxel, nearest->hi, c.value + sd_, nearest->group});
    }
  }
  return out;
}

}  // namespace delineate::annotation
