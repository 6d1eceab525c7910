#include "core/mammo/DemoCalcificationFinder.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace delineate::core::mammo {

namespace {

constexpr double kOpeningHalfMm = 0.8;  // spots narrower than ~1.6 mm pass the top-hat
constexpr double kMaxSpotAreaMm2 = 2.0;
constexpr double kLinkMm = 8;  // spots this close belong to one cluster
constexpr std::size_t kMinSpots = 3;
constexpr std::size_t kMaxSpots = 4000;  // the brightest, when an image has more

struct Spot {
  double c = 0, r = 0;  // weighted centroid, full-resolution pixels
  double peak = 0;      // top-hat value / threshold
  std::size_t c0 = 0, r0 = 0, c1 = 0, r1 = 0;
};

struct Crop {
  std::size_t c0 = 0, r0 = 0, columns = 0, rows = 0;
};

// The full-resolution box around the breast (its coarse blocks), with a margin.
Crop breastBox(const BreastImage& b, std::size_t margin) {
  std::size_t c0 = b.coarse.columns, r0 = b.coarse.rows, c1 = 0, r1 = 0;
  for (std::size_t r = 0; r < b.coarse.rows; ++r) {
    for (std::size_t c = 0; c < b.coarse.columns; ++c) {
      if (b.breast[r * b.coarse.columns + c]) {
        c0 = std::min(c0, c), r0 = std::min(r0, r), c1 = std::max(c1, c), r1 = std::max(r1, r);
      }
    }
  }
  Crop crop;
  if (c0 > c1) {
    return crop;
  }
  crop.c0 = c0 * b.factor > margin ? c0 * b.factor - margin : 0;
  crop.r0 = r0 * b.factor > margin ? r0 * b.factor - margin : 0;
  crop.columns = std::min(b.full.columns, (c1 + 1) * b.factor + margin) - crop.c0;
  crop.rows = std::min(b.full.rows, (r1 + 1) * b.factor + margin) - crop.r0;
  return crop;
}

// More spots and brighter ones (median top-hat peak over the detection level) score higher; at
// most 0.95.
double clusterScore(std::size_t spots, double medianContrast) {
  const double count = 1 - std::pow(0.55, double(spots) - 2);
  const double contrast = std::clamp((medianContrast - 1.5) / 2, 0.0, 1.0);
  return 0.95 * count * contrast;
}

std::size_t findRoot(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

// The white top-hat (value less its opening) of the 3x3-smoothed crop.
FloatImage tophatOf(const BreastImage& b, const Crop& crop, std::size_t half,
                    ProgressSink& progress) {
  FloatImage sub(crop.columns, crop.rows);
  for (std::size_t r = 0; r < crop.rows; ++r) {
    const float* in = b.full.values.data() + (crop.r0 + r) * b.full.columns + crop.c0;
    std::copy(in, in + crop.columns, sub.values.data() + r * crop.columns);
  }
  const FloatImage smooth = smooth3(sub);
  sub = {};
  progress.throwIfCancelled();
  FloatImage tophat = openingSquare(smooth, half);
  for (std::size_t i = 0; i < tophat.values.size(); ++i) {
    tophat.values[i] = smooth.values[i] - tophat.values[i];
  }
  progress.throwIfCancelled();
  return tophat;
}

// Spots must stand out from the pixel noise, from the top-hat's own spread in the breast (noise
// that is correlated over a few pixels), and from the breast's range.
double detectionLevel(const BreastImage& b, const FloatImage& tophat, const Crop& crop) {
  std::vector<float> sample;
  const std::size_t every = std::max<std::size_t>(1, tophat.values.size() / (1 << 18)) | 1;
  for (std::size_t i = 0; i < tophat.values.size(); i += every) {
    if (b.inBreast(crop.c0 + i % crop.columns, crop.r0 + i / crop.columns)) {
      sample.push_back(tophat.values[i]);
    }
  }
  double spread = 0;
  if (sample.size() >= 16) {
    const auto mid = sample.begin() + std::ptrdiff_t(sample.size() / 2);
    std::nth_element(sample.begin(), mid, sample.end());
    const float median = *mid;
    for (float& v : sample) {
      v = std::abs(v - median);
    }
    std::nth_element(sample.begin(), mid, sample.end());
    spread = double(median) + 10 * 1.4826 * double(*mid);
  }
  return std::max({10 * b.noise, 0.05 * double(b.high - b.low), spread});
}

// Spots: 8-connected regions above half the level holding a pixel above the level, in the
// breast, of 2 pixels to kMaxSpotAreaMm2; in full-resolution pixels, peak relative to the level.
std::vector<Spot> findSpots(const BreastImage& b, const FloatImage& tophat, const Crop& crop,
                            double level, ProgressSink& progress) {
  std::vector<Spot> spots;
  std::vector<std::uint8_t> seen(tophat.values.size(), 0);
  std::vector<std::size_t> stack;
  const double maxArea = kMaxSpotAreaMm2 / (b.pixelMm * b.pixelMm);
  const auto low = float(0.5 * level), high = float(level);
  for (std::size_t row = 0; row < crop.rows; ++row) {
    if (row % 64 == 0) {
      progress.throwIfCancelled();
    }
    const float* line = tophat.values.data() + row * crop.columns;
    for (std::size_t col = 0; col < crop.columns; ++col) {
      const std::size_t start = row * crop.columns + col;
      if (line[col] <= high || seen[start] || !b.inBreast(crop.c0 + col, crop.r0 + row)) {
        continue;
      }
      Spot s;
      s.c0 = s.c1 = col;
      s.r0 = s.r1 = row;
      double weight = 0, area = 0;
      seen[start] = 1;
      stack.push_back(start);
      while (!stack.empty()) {
        const std::size_t i = stack.back();
        stack.pop_back();
        const std::size_t c = i % crop.columns, r = i / crop.columns;
        const double t = tophat.values[i];
        weight += t;
        area += 1;
        s.c += t * double(c);
        s.r += t * double(r);
        s.peak = std::max(s.peak, t);
        s.c0 = std::min(s.c0, c), s.c1 = std::max(s.c1, c);
        s.r0 = std::min(s.r0, r), s.r1 = std::max(s.r1, r);
        for (long rr = long(r) - 1; rr <= long(r) + 1; ++rr) {
          for (long cc = long(c) - 1; cc <= long(c) + 1; ++cc) {
            if (cc < 0 || rr < 0 || cc >= long(crop.columns) || rr >= long(crop.rows)) {
              continue;
            }
            const std::size_t j = std::size_t(rr) * crop.columns + std::size_t(cc);
            if (!seen[j] && tophat.values[j] > low) {
              seen[j] = 1;
              stack.push_back(j);
            }
          }
        }
      }
      if (area < 2 || area > maxArea) {
        continue;  // a noise pixel, or too large for a calcification
      }
      s.c = s.c / weight + double(crop.c0);
      s.r = s.r / weight + double(crop.r0);
      s.c0 += crop.c0, s.c1 += crop.c0, s.r0 += crop.r0, s.r1 += crop.r0;
      s.peak /= level;
      spots.push_back(s);
    }
  }
  if (spots.size() > kMaxSpots) {
    std::nth_element(spots.begin(), spots.begin() + kMaxSpots, spots.end(),
                     [](const Spot& x, const Spot& y) { return x.peak > y.peak; });
    spots.resize(kMaxSpots);
  }
  return spots;
}

}  // namespace

std::vector<FindingMark> findCalcificationClusters(const BreastImage& b, double threshold,
                                                   FloatImage& heat, ProgressSink& progress) {
  std::vector<FindingMark> marks;
  if (!b.hasBreast()) {
    return marks;
  }
  const auto half = std::size_t(std::max(2L, std::lround(kOpeningHalfMm / b.pixelMm)));
  const Crop crop = breastBox(b, 2 * half);
  if (crop.columns == 0 || crop.rows == 0) {
    return marks;
  }
  const FloatImage tophat = tophatOf(b, crop, half, progress);
  const double level = detectionLevel(b, tophat, crop);
  const std::vector<Spot> spots = findSpots(b, tophat, crop, level, progress);

  // Single-linkage groups of spots within kLinkMm.
  std::vector<std::size_t> parent(spots.size());
  std::iota(parent.begin(), parent.end(), 0);
  const double link = kLinkMm / b.pixelMm, link2 = link * link;
  for (std::size_t i = 0; i < spots.size(); ++i) {
    for (std::size_t j = i + 1; j < spots.size(); ++j) {
      const double dc = spots[i].c - spots[j].c, dr = spots[i].r - spots[j].r;
      if (dc * dc + dr * dr <= link2) {
        parent[findRoot(parent, i)] = findRoot(parent, j);
      }
    }
  }
  std::vector<std::vector<std::size_t>> groups(spots.size());
  for (std::size_t i = 0; i < spots.size(); ++i) {
    groups[findRoot(parent, i)].push_back(i);
  }
  const double pad = 0.5 / b.pixelMm;
  for (const auto& group : groups) {
    if (group.size() < kMinSpots) {
      continue;
    }
    std::vector<double> contrasts;
    FindingMark m;
    m.kind = "calcification";
    m.x0 = m.y0 = 1e300;
    m.x1 = m.y1 = -1e300;
    for (const std::size_t i : group) {
      const Spot& s = spots[i];
      contrasts.push_back(s.peak);
      m.column += s.c / double(group.size());
      m.row += s.r / double(group.size());
      m.x0 = std::min(m.x0, double(s.c0)), m.x1 = std::max(m.x1, double(s.c1));
      m.y0 = std::min(m.y0, double(s.r0)), m.y1 = std::max(m.y1, double(s.r1));
    }
    std::nth_element(contrasts.begin(), contrasts.begin() + long(contrasts.size() / 2),
                     contrasts.end());
    m.score = clusterScore(group.size(), contrasts[contrasts.size() / 2]);
    if (m.score < threshold) {
      continue;
    }
    m.x0 = std::max(0.0, m.x0 - pad), m.y0 = std::max(0.0, m.y0 - pad);
    m.x1 = std::min(double(b.full.columns - 1), m.x1 + pad);
    m.y1 = std::min(double(b.full.rows - 1), m.y1 + pad);
    for (auto r = std::size_t(m.y0) / b.factor; r <= std::size_t(m.y1) / b.factor; ++r) {
      for (auto c = std::size_t(m.x0) / b.factor; c <= std::size_t(m.x1) / b.factor; ++c) {
        heat.at(c, r) = std::max(heat.at(c, r), float(m.score));
      }
    }
    marks.push_back(m);
  }
  std::stable_sort(marks.begin(), marks.end(),
                   [](const FindingMark& x, const FindingMark& y) { return x.score > y.score; });
  return marks;
}

}  // namespace delineate::core::mammo
