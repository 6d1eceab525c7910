#include "core/metrics/ReaderVotes.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "core/Error.h"
#include "core/jobs/ParallelFor.h"
#include "core/metrics/SameGrid.h"

namespace delineate::core {

namespace {

std::array<std::uint8_t, 3> mix(const std::array<std::uint8_t, 3>& a,
                                const std::array<std::uint8_t, 3>& b, double t) {
  std::array<std::uint8_t, 3> out{};
  for (int c = 0; c < 3; ++c) {
    out[c] = std::uint8_t(std::lround(a[c] + (b[c] - a[c]) * t));
  }
  return out;
}

}  // namespace

std::size_t ReaderVotes::disagreeing() const {
  std::size_t n = 0;
  for (std::size_t v = 1; v + 1 < histogram.size(); ++v) {
    n += histogram[v];
  }
  return n;
}

std::uint16_t readerLabelValue(const LabelMap& map, const std::string& name,
                               std::uint16_t fallback) {
  if (name.empty() || map.segments().empty()) {
    return fallback;
  }
  for (const Segment& s : map.segments()) {
    if (s.name == name) {
      return s.label;
    }
  }
  return 0;
}

std::vector<Segment> voteSegments(std::size_t readers) {
  const std::array<std::uint8_t, 3> vermilion{213, 94, 0}, yellow{240, 228, 66}, green{0, 158, 115};
  std::vector<Segment> out;
  for (std::size_t n = 1; n <= readers && n < 65536; ++n) {
    Segment s;
    s.label = std::uint16_t(n);
    s.name = std::to_string(n) + " of " + std::to_string(readers) + " readers";
    if (n == readers) {
      s.color = green;
    } else {
      s.color =
          readers > 2 ? mix(vermilion, yellow, double(n - 1) / double(readers - 2)) : vermilion;
    }
    s.algorithmType = "AUTOMATIC";
    out.push_back(std::move(s));
  }
  return out;
}

ReaderVotes readerVotes(const std::vector<const LabelMap*>& readers, const std::string& name,
                        std::uint16_t fallback, ProgressSink& progress) {
  if (readers.size() < 2) {
    throw Error(ErrorKind::InvalidInput, "readers' votes",
                "it needs at least two readers' label maps");
  }
  for (std::size_t r = 1; r < readers.size(); ++r) {
    requireSameGrid(*readers[0], *readers[r]);
  }
  ReaderVotes out;
  for (const LabelMap* m : readers) {
    out.values.push_back(readerLabelValue(*m, name, fallback));
  }
  const std::size_t n = readers.size();
  std::string title = "Readers' votes";
  if (!name.empty()) {
    title += ": " + name;
  }
  out.map = std::make_shared<LabelMap>(title, readers[0]->geometry(), voteSegments(n));
  const Size3& s = readers[0]->geometry().size;
  const unsigned threads = hardwareThreads();
  const std::size_t slabs = std::max<std::size_t>(1, std::min<std::size_t>(s[2], threads * 4));
  std::vector<std::vector<std::size_t>> perSlab(slabs, std::vector<std::size_t>(n + 1, 0));
  std::uint16_t* votes = out.map->mutableData();
  const std::size_t plane = s[0] * s[1];
  std::atomic<std::size_t> done{0};
  parallelFor(slabs, threads, progress, [&](std::size_t slab) {
    const std::size_t k0 = s[2] * slab / slabs, k1 = s[2] * (slab + 1) / slabs;
    std::vector<std::size_t>& counts = perSlab[slab];
    for (std::size_t k = k0; k < k1; ++k) {
      progress.throwIfCancelled();
      std::uint16_t* row = votes + k * plane;
      for (std::size_t r = 0; r < n; ++r) {
        const std::uint16_t value = out.values[r];
        if (value == 0) {
          continue;
        }
        const std::uint16_t* in = readers[r]->data() + k * plane;
        for (std::size_t x = 0; x < plane; ++x) {
          row[x] = std::uint16_t(row[x] + (in[x] == value));
        }
      }
      for (std::size_t x = 0; x < plane; ++x) {
        ++counts[row[x]];
      }
      progress.report(double(++done) / double(s[2]), "Readers' votes");
    }
  });
  out.histogram.assign(n + 1, 0);
  for (const auto& c : perSlab) {
    for (std::size_t v = 1; v <= n; ++v) {
      out.histogram[v] += c[v];
    }
  }
  progress.report(1.0, "Readers' votes");
  return out;
}

}  // namespace delineate::core
