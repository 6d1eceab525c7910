#include "core/metrics/SliceDice.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "core/Error.h"
#include "core/jobs/ParallelFor.h"
#include "core/metrics/LabelWords.h"
#include "core/metrics/SameGrid.h"

namespace delineate::core {

namespace {

// Voxels of the label per slice, in the reference, the test and both.
struct SliceCounts {
  std::vector<std::uint64_t> reference, test, both;
  explicit SliceCounts(std::size_t n) : reference(n, 0), test(n, 0), both(n, 0) {}
};

}  // namespace

std::vector<double> sliceDice(const LabelMap& reference, const LabelMap& test, std::uint16_t label,
                              int axis, ProgressSink& progress) {
  requireSameGrid(reference, test);
  if (label == 0) {
    throw Error(ErrorKind::InvalidInput, reference.name(),
                "label 0 is the background and has no slice Dice");
  }
  if (axis < 0 || axis > 2) {
    throw Error(ErrorKind::InvalidInput, reference.name(),
                "slice axis must be 0, 1 or 2, not " + std::to_string(axis));
  }
  const Size3& s = reference.geometry().size;
  const std::size_t slices = s[std::size_t(axis)];
  const unsigned threads = hardwareThreads();
  const std::size_t slabs = std::min<std::size_t>(s[2], std::size_t(threads) * 4);
  std::vector<SliceCounts> perSlab(slabs, SliceCounts(slices));
  const std::uint16_t* ref = reference.data();
  const std::uint16_t* tst = test.data();
  parallelFor(slabs, threads, progress, [&](std::size_t slab) {
    SliceCounts& c = perSlab[slab];
    const std::size_t k0 = s[2] * slab / slabs, k1 = s[2] * (slab + 1) / slabs;
    for (std::size_t k = k0; k < k1; ++k) {
      if (k % 16 == 0) {
        progress.throwIfCancelled();
      }
      for (std::size_t j = 0; j < s[1]; ++j) {
        const std::uint16_t* r = ref + reference.index(0, j, k);
        const std::uint16_t* t = tst + reference.index(0, j, k);
        std::uint64_t a = 0, b = 0, ab = 0;
        for (std::size_t i = 0; i < s[0];) {
          // Background (label 0 in both) eight voxels at a time.
          if (i + 8 <= s[0] &&
              (load4(r + i) | load4(r + i + 4) | load4(t + i) | load4(t + i + 4)) == 0) {
            i += 8;
            continue;
          }
          for (const std::size_t end = std::min(s[0], i + 8); i < end; ++i) {
            const unsigned x = r[i] == label, y = t[i] == label;
            if (axis == 0) {
              c.reference[i] += x;
              c.test[i] += y;
              c.both[i] += x & y;
            } else {
              a += x;
              b += y;
              ab += x & y;
            }
          }
        }
        if (axis != 0) {
          const std::size_t slice = axis == 1 ? j : k;
          c.reference[slice] += a;
          c.test[slice] += b;
          c.both[slice] += ab;
        }
      }
    }
  });

  std::vector<double> dice(slices, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t n = 0; n < slices; ++n) {
    std::uint64_t a = 0, b = 0, ab = 0;
    for (const SliceCounts& c : perSlab) {
      a += c.reference[n];
      b += c.test[n];
      ab += c.both[n];
    }
    if (a + b > 0) {
      dice[n] = 2.0 * double(ab) / double(a + b);
    }
  }
  progress.report(1.0, "Slice Dice");
  return dice;
}

}  // namespace delineate::core
