#include "core/metrics/OverlapCounts.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/jobs/ParallelFor.h"
#include "core/metrics/LabelWords.h"
#include "core/metrics/SameGrid.h"

namespace delineate::core {

namespace {

// The labels one slab has seen: a direct table (label -> slot) so that a lookup costs one load
// whatever the label value, and a compact list of the labels present.
class SlabTable {
 public:
  SlabTable() : slot_(std::size_t(std::numeric_limits<std::uint16_t>::max()) + 1, 0) {}

  LabelOverlap& at(std::uint16_t label) {
    std::uint16_t& s = slot_[label];
    if (s == 0) {
      entries_.push_back({});
      entries_.back().label = label;
      s = std::uint16_t(entries_.size());  // at most 65535 labels: label 0 never has a slot
    }
    return entries_[s - 1];
  }

  // A run [begin, end) of row (j, k) where the reference has `a` and the test `b`.
  void addRun(std::uint16_t a, std::uint16_t b, std::size_t begin, std::size_t end, std::size_t j,
              std::size_t k) {
    const std::uint64_t length = end - begin;
    if (a != 0) {
      LabelOverlap& e = at(a);
      e.reference += length;
      e.both += a == b ? length : 0;
      e.referenceBox.include(begin, j, k);
      e.referenceBox.include(end - 1, j, k);
    }
    if (b != 0) {
      LabelOverlap& e = at(b);
      e.test += length;
      e.testBox.include(begin, j, k);
      e.testBox.include(end - 1, j, k);
    }
  }

  std::vector<LabelOverlap>& entries() { return entries_; }

 private:
  std::vector<std::uint16_t> slot_;
  std::vector<LabelOverlap> entries_;
};

// Splits a row into runs where both maps keep one value each; background runs (0, 0) are
// skipped eight voxels at a time.
void scanRow(const std::uint16_t* ref, const std::uint16_t* test, std::size_t n, std::size_t j,
             std::size_t k, SlabTable& table) {
  std::size_t i = 0;
  while (i < n) {
    while (i + 8 <= n &&
           (load4(ref + i) | load4(ref + i + 4) | load4(test + i) | load4(test + i + 4)) == 0) {
      i += 8;
    }
    if (i >= n) {
      break;
    }
    const std::uint16_t a = ref[i], b = test[i];
    const std::size_t begin = i++;
    const std::uint64_t fourA = a * 0x0001000100010001ull, fourB = b * 0x0001000100010001ull;
    while (i + 4 <= n && load4(ref + i) == fourA && load4(test + i) == fourB) {
      i += 4;
    }
    while (i < n && ref[i] == a && test[i] == b) {
      ++i;
    }
    if ((a | b) != 0) {
      table.addRun(a, b, begin, i, j, k);
    }
  }
}

void merge(LabelOverlap& into, const LabelOverlap& from) {
  into.reference += from.reference;
  into.test += from.test;
  into.both += from.both;
  into.referenceBox.include(from.referenceBox);
  into.testBox.include(from.testBox);
}

double ratio(double numerator, double denominator) {
  return denominator > 0 ? numerator / denominator : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

LabelOverlap OverlapCounts::find(std::uint16_t label) const {
  const auto it =
      std::lower_bound(labels.begin(), labels.end(), label,
                       [](const LabelOverlap& e, std::uint16_t l) { return e.label < l; });
  if (it != labels.end() && it->label == label) {
    return *it;
  }
  LabelOverlap none;
  none.label = label;
  return none;
}

OverlapCounts countOverlaps(const LabelMap& reference, const LabelMap& test,
                            ProgressSink& progress) {
  requireSameGrid(reference, test);
  const Size3& s = reference.geometry().size;
  const unsigned threads = hardwareThreads();
  // A few slabs per thread for balance; each slab has its own table, merged below.
  const std::size_t slabs = std::min<std::size_t>(s[2], std::size_t(threads) * 4);
  std::vector<std::vector<LabelOverlap>> perSlab(slabs);
  std::atomic<std::size_t> done{0};
  const std::uint16_t* ref = reference.data();
  const std::uint16_t* tst = test.data();
  parallelFor(slabs, threads, progress, [&](std::size_t slab) {
    SlabTable table;
    const std::size_t k0 = s[2] * slab / slabs, k1 = s[2] * (slab + 1) / slabs;
    for (std::size_t k = k0; k < k1; ++k) {
      if (k % 16 == 0) {
        progress.throwIfCancelled();
      }
      for (std::size_t j = 0; j < s[1]; ++j) {
        const std::size_t row = reference.index(0, j, k);
        scanRow(ref + row, tst + row, s[0], j, k, table);
      }
    }
    perSlab[slab] = std::move(table.entries());
    progress.report(double(++done) / double(slabs), "Counting overlap");
  });

  std::vector<std::uint32_t> slot(std::size_t(std::numeric_limits<std::uint16_t>::max()) + 1, 0);
  OverlapCounts out;
  for (const auto& entries : perSlab) {
    for (const LabelOverlap& e : entries) {
      std::uint32_t& sl = slot[e.label];
      if (sl == 0) {
        out.labels.push_back(e);
        sl = std::uint32_t(out.labels.size());
      } else {
        merge(out.labels[sl - 1], e);
      }
    }
  }
  std::sort(out.labels.begin(), out.labels.end(),
            [](const LabelOverlap& a, const LabelOverlap& b) { return a.label < b.label; });
  return out;
}

OverlapMeasures overlapMeasures(const LabelOverlap& c, double voxelMl) {
  OverlapMeasures m;
  const double ref = double(c.reference), tst = double(c.test), tp = double(c.both);
  m.referenceMl = ref * voxelMl;
  m.testMl = tst * voxelMl;
  m.volumeDifferenceMl = m.testMl - m.referenceMl;
  if (c.reference == 0 && c.test == 0) {
    m.dice = m.jaccard = m.sensitivity = m.precision = 1.0;
    m.volumeDifferencePercent = 0.0;
    return m;
  }
  m.dice = 2.0 * tp / (ref + tst);
  m.jaccard = tp / (ref + tst - tp);
  m.sensitivity = ratio(tp, ref);
  m.precision = ratio(tp, tst);
  m.volumeDifferencePercent = ratio(100.0 * (tst - ref), ref);
  return m;
}

}  // namespace delineate::core
