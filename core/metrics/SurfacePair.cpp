#include "core/metrics/SurfacePair.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/Error.h"
#include "core/jobs/ParallelFor.h"
#include "core/metrics/ParabolaEnvelope.h"

namespace delineate::core {

namespace {

constexpr std::uint16_t kNoFeature = 0xffff;
constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// The outward search gives up on a label once it has looked at this many row distances per
// box voxel: the full transform is cheaper from there.
constexpr double kSearchBudgetPerVoxel = 4.0;
constexpr std::size_t kMaxLength = std::size_t(1) << 21;

// First axis: the distance in voxels along a row of n voxels to the nearest of the feature
// voxels (packed queries of the other surface in this row, i increasing), kNoFeature when there
// are none.
void rowPass(const std::uint64_t* features, std::size_t count, std::size_t n, std::uint16_t* out) {
  if (count == 0) {
    std::fill(out, out + n, kNoFeature);
    return;
  }
  auto at = [&](std::size_t f) { return std::size_t(features[f] & 0xffffffffu); };
  const std::size_t first = at(0), last = at(count - 1);
  for (std::size_t i = 0; i <= first; ++i) {
    out[i] = std::uint16_t(first - i);
  }
  for (std::size_t f = 1; f < count; ++f) {
    const std::size_t a = at(f - 1), b = at(f);
    for (std::size_t i = a + 1; i <= b; ++i) {
      out[i] = std::uint16_t(std::min(i - a, b - i));
    }
  }
  for (std::size_t i = last + 1; i < n; ++i) {
    out[i] = std::uint16_t(i - last);
  }
}

// Marks in out[0..n) the surface voxels of `label` in one row of the box (row: its first voxel
// in the map; sy, sz: the map's strides). Voxels outside the box are not of the label, so a
// voxel on the box's edge is surface; `edgeRow` says the row itself is on the box's edge.
void markRow(const std::uint16_t* row, std::size_t sy, std::size_t sz, std::size_t n,
             std::uint16_t label, bool edgeRow, std::uint8_t* out) {
  if (edgeRow || n < 3) {
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = row[i] == label;
    }
    return;
  }
  const std::uint16_t *up = row - sy, *down = row + sy, *front = row - sz, *back = row + sz;
  out[0] = row[0] == label;
  out[n - 1] = row[n - 1] == label;
  auto surface = [&](std::size_t i) -> std::uint8_t {
    const bool interior = (row[i - 1] == label) & (row[i + 1] == label) & (up[i] == label) &
                          (down[i] == label) & (front[i] == label) & (back[i] == label);
    return (row[i] == label) & !interior;
  };
  // Branch-free blocks of 16 into a local array (no aliasing with the labels), which the
  // compiler vectorises at -O2; then the rest.
  std::size_t i = 1;
  for (; i + 16 < n; i += 16) {
    std::uint8_t block[16];
    for (std::size_t b = 0; b < 16; ++b) {
      block[b] = surface(i + b);
    }
    std::memcpy(out + i, block, sizeof block);
  }
  for (; i + 1 < n; ++i) {
    out[i] = surface(i);
  }
}

// Appends (j << 32 | i) for every marked voxel of the row, skipping eight unmarked at a time.
void appendQueries(const std::uint8_t* marked, std::size_t n, std::size_t j,
                   std::vector<std::uint64_t>& out) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, marked + i, sizeof word);
    if (word == 0) {
      continue;
    }
    for (std::size_t b = i; b < i + 8; ++b) {
      if (marked[b]) {
        out.push_back(std::uint64_t(j) << 32 | b);
      }
    }
  }
  for (; i < n; ++i) {
    if (marked[i]) {
      out.push_back(std::uint64_t(j) << 32 | i);
    }
  }
}

// The squared distance (mm^2) of a row distance in voxels along i (w = squared spacing).
double rowSquared(std::uint16_t d, double w) {
  return d == kNoFeature ? kInfinity : w * double(d) * double(d);
}

// Along the line of row distances line[m * stride], m in [0, n): the minimum over m of
// rowSquared(line[m]) + w (m - m0)^2 + base, taken into `best`, searched outwards from m0 while
// w d^2 + base < best (nothing further can be lower). Returns the values looked at.
std::size_t searchRows(const std::uint16_t* line, std::size_t stride, std::size_t n, std::size_t m0,
                       double wRow, double w, double base, double& best) {
  std::size_t looked = 0;
  for (std::size_t d = 0;; ++d) {
    const double c = base + w * double(d) * double(d);
    const bool below = m0 >= d, above = m0 + d < n && d > 0;
    if (!(c < best) || (!below && m0 + d >= n)) {
      return looked;
    }
    if (below) {
      best = std::min(best, rowSquared(line[(m0 - d) * stride], wRow) + c);
      ++looked;
    }
    if (above) {
      best = std::min(best, rowSquared(line[(m0 + d) * stride], wRow) + c);
      ++looked;
    }
  }
}

// The same outward search over a line of squared distances (the full transform's last axis).
std::size_t searchSquared(const float* line, std::size_t stride, std::size_t n, std::size_t m0,
                          double w, double& best) {
  std::size_t looked = 0;
  for (std::size_t d = 0;; ++d) {
    const double c = w * double(d) * double(d);
    const bool below = m0 >= d, above = m0 + d < n && d > 0;
    if (!(c < best) || (!below && m0 + d >= n)) {
      return looked;
    }
    if (below) {
      best = std::min(best, double(line[(m0 - d) * stride]) + c);
      ++looked;
    }
    if (above) {
      best = std::min(best, double(line[(m0 + d) * stride]) + c);
      ++looked;
    }
  }
}

std::vector<double> concat(std::vector<std::vector<double>>& parts) {
  std::size_t n = 0;
  for (const auto& p : parts) {
    n += p.size();
  }
  std::vector<double> all;
  all.reserve(n);
  for (auto& p : parts) {
    all.insert(all.end(), p.begin(), p.end());
    std::vector<double>().swap(p);
  }
  return all;
}

}  // namespace

SurfacePair::SurfacePair(const LabelMap& reference, const LabelMap& test, std::uint16_t label,
                         const VoxelBox& box)
    : reference_(reference), test_(test), label_(label), lo_(box.lo) {
  const Vec3& sp = reference.geometry().spacing;
  for (int a = 0; a < 3; ++a) {
    n_[a] = box.hi[a] - box.lo[a];
    w_[a] = sp[a] * sp[a];
  }
  if (n_[0] >= kNoFeature || n_[1] >= kMaxLength || n_[2] >= kMaxLength) {
    throw Error(ErrorKind::Unsupported, reference.name(),
                "surface distances: the label's box is too long along one axis");
  }
}

void SurfacePair::markSurfaces(ProgressSink& progress) {
  const std::size_t count = n_[0] * n_[1] * n_[2];
  for (int s = 0; s < 2; ++s) {
    rowDistance_[s].resize(count);
    queries_[s].assign(n_[2], {});
  }
  const Size3& size = reference_.geometry().size;
  const std::size_t sy = size[0], sz = size[0] * size[1];
  const unsigned threads = hardwareThreads();
  const std::size_t blocks = std::min<std::size_t>(n_[2], std::size_t(threads) * 4);
  std::atomic<std::size_t> done{0};
  parallelFor(blocks, threads, progress, [&](std::size_t block) {
    std::vector<std::uint8_t> surface(n_[0]);
    for (std::size_t k = n_[2] * block / blocks; k < n_[2] * (block + 1) / blocks; ++k) {
      progress.throwIfCancelled();
      for (std::size_t j = 0; j < n_[1]; ++j) {
        // Voxels outside the box are not of the label: a voxel on the box's edge is surface.
        const bool edgeRow = j == 0 || j + 1 == n_[1] || k == 0 || k + 1 == n_[2];
        std::size_t begin[2];
        for (int s = 0; s < 2; ++s) {
          const LabelMap& map = s == 0 ? reference_ : test_;
          const std::uint16_t* row = map.data() + map.index(lo_[0], lo_[1] + j, lo_[2] + k);
          markRow(row, sy, sz, n_[0], label_, edgeRow, surface.data());
          begin[s] = queries_[s][k].size();
          appendQueries(surface.data(), n_[0], j, queries_[s][k]);
        }
        // Each surface's distances are to the other's voxels in this row.
        for (int s = 0; s < 2; ++s) {
          const std::vector<std::uint64_t>& other = queries_[1 - s][k];
          rowPass(other.data() + begin[1 - s], other.size() - begin[1 - s], n_[0],
                  rowDistance_[s].data() + index(0, j, k));
        }
      }
      progress.report(double(++done) / double(n_[2]), "Surface distances");
    }
  });
  surfaceVoxels_[0] = 0;
  surfaceVoxels_[1] = 0;
  for (int s = 0; s < 2; ++s) {
    for (const auto& slice : queries_[s]) {
      surfaceVoxels_[s] += slice.size();
    }
  }
}

void SurfacePair::distances(std::vector<double>& referenceToTest,
                            std::vector<double>& testToReference, ProgressSink& progress) {
  std::vector<double> out[2];
  usedFullTransform_ = !searchDistances(out, progress);
  if (usedFullTransform_) {
    transformDistances(out, progress);
  }
  referenceToTest = std::move(out[0]);
  testToReference = std::move(out[1]);
}

// Second and third axes by outward search from each query over the row distances: the slices k
// outwards from the query's, in each the rows j outwards from its, while the part of the
// distance known so far (w_z dk^2 + w_y dj^2) stays below the best found. Returns false (and
// nothing) when the searches exceed their budget.
bool SurfacePair::searchDistances(std::vector<double> (&out)[2], ProgressSink& progress) {
  const unsigned threads = hardwareThreads();
  const std::size_t blocks = std::min<std::size_t>(n_[2], std::size_t(threads) * 4);
  std::vector<std::vector<double>> parts[2] = {std::vector<std::vector<double>>(blocks),
                                               std::vector<std::vector<double>>(blocks)};
  std::atomic<bool> overBudget{false};
  const double budgetPerSlice = kSearchBudgetPerVoxel * double(n_[0]) * double(n_[1]);
  const std::size_t sj = n_[0];
  std::atomic<std::size_t> done{0};
  parallelFor(blocks, threads, progress, [&](std::size_t block) {
    const std::size_t k0 = n_[2] * block / blocks, k1 = n_[2] * (block + 1) / blocks;
    const double budget = budgetPerSlice * double(k1 - k0);
    std::size_t looked = 0;
    for (std::size_t k = k0; k < k1; ++k) {
      progress.throwIfCancelled();
      for (int s = 0; s < 2; ++s) {
        const std::uint16_t* g = rowDistance_[s].data();
        std::vector<double>& distances = parts[s][block];
        for (const std::uint64_t q : queries_[s][k]) {
          const std::size_t i = q & 0xffffffffu, j = q >> 32;
          double best = kInfinity;
          for (std::size_t d = 0;; ++d) {
            const double ck = w_[2] * double(d) * double(d);
            if (!(ck < best) || (k < d && k + d >= n_[2])) {
              break;
            }
            if (k >= d) {
              looked += searchRows(g + index(i, 0, k - d), sj, n_[1], j, w_[0], w_[1], ck, best);
            }
            if (d > 0 && k + d < n_[2]) {
              looked += searchRows(g + index(i, 0, k + d), sj, n_[1], j, w_[0], w_[1], ck, best);
            }
          }
          distances.push_back(std::sqrt(best));
          if (double(looked) > budget || overBudget.load(std::memory_order_relaxed)) {
            overBudget = true;
            return;
          }
        }
      }
      progress.report(double(++done) / double(n_[2]), "Surface distances");
    }
  });
  if (overBudget) {
    return false;
  }
  for (int s = 0; s < 2; ++s) {
    out[s] = concat(parts[s]);
  }
  return true;
}

// The exact separable transform: the second axis by the envelope over every column of every
// slice, then the third by outward search from each query over those values (or the column's
// envelope when a column's searches grow long).
void SurfacePair::transformDistances(std::vector<double> (&out)[2], ProgressSink& progress) {
  const unsigned threads = hardwareThreads();
  for (int s = 0; s < 2; ++s) {
    // Squared distances over the first two axes, slice by slice.
    std::vector<float> g(rowDistance_[s].size());
    const std::size_t sliceBlocks = std::min<std::size_t>(n_[2], std::size_t(threads) * 4);
    parallelFor(sliceBlocks, threads, progress, [&](std::size_t block) {
      ParabolaEnvelope envelope;
      for (std::size_t k = n_[2] * block / sliceBlocks; k < n_[2] * (block + 1) / sliceBlocks;
           ++k) {
        progress.throwIfCancelled();
        float* slice = g.data() + index(0, 0, k);
        const std::uint16_t* rows = rowDistance_[s].data() + index(0, 0, k);
        for (std::size_t n = 0; n < n_[0] * n_[1]; ++n) {
          slice[n] = float(rowSquared(rows[n], w_[0]));
        }
        for (std::size_t i = 0; i < n_[0]; ++i) {
          if (envelope.build(slice + i, n_[1], n_[0], w_[1])) {
            envelope.writeAll(slice + i, n_[1], n_[0]);
          }  // else no feature in this column of the slice: it stays infinite
        }
      }
    });

    // The queries by column (j, i), k increasing.
    std::vector<std::uint64_t> columns;
    columns.reserve(surfaceVoxels_[s]);
    for (std::size_t k = 0; k < n_[2]; ++k) {
      for (const std::uint64_t q : queries_[s][k]) {
        columns.push_back((q >> 32) << 42 | (q & 0xffffffffu) << 21 | k);
      }
    }
    std::sort(columns.begin(), columns.end());
    const std::size_t blocks = std::min<std::size_t>(columns.size(), std::size_t(threads) * 4);
    std::vector<std::vector<double>> parts(blocks);
    const std::size_t sk = n_[0] * n_[1];
    parallelFor(blocks, threads, progress, [&](std::size_t block) {
      // Whole columns per block: start at the first query of a column.
      auto columnOf = [](std::uint64_t c) { return c >> 21; };
      std::size_t begin = columns.size() * block / blocks;
      std::size_t end = columns.size() * (block + 1) / blocks;
      while (begin > 0 && begin < columns.size() &&
             columnOf(columns[begin]) == columnOf(columns[begin - 1])) {
        ++begin;
      }
      while (end < columns.size() && end > 0 &&
             columnOf(columns[end]) == columnOf(columns[end - 1])) {
        ++end;
      }
      ParabolaEnvelope envelope;
      for (std::size_t first = begin, last = begin; first < end; first = last) {
        progress.throwIfCancelled();
        while (last < end && columnOf(columns[last]) == columnOf(columns[first])) {
          ++last;
        }
        const std::size_t j = columns[first] >> 42, i = (columns[first] >> 21) & (kMaxLength - 1);
        const float* column = g.data() + index(i, j, 0);
        const std::size_t budget = 2 * n_[2] + 16;
        std::size_t looked = 0;
        bool built = false;
        for (std::size_t q = first; q < last; ++q) {
          const std::size_t k = columns[q] & (kMaxLength - 1);
          double best = kInfinity;
          if (looked <= budget) {
            looked += searchSquared(column, sk, n_[2], k, w_[2], best);
          } else {
            built = built || envelope.build(column, n_[2], sk, w_[2]);
            best = built ? envelope.at(k) : best;
          }
          parts[block].push_back(std::sqrt(best));
        }
      }
    });
    out[s] = concat(parts);
  }
}

}  // namespace delineate::core
