#include "core/metrics/AgreementMap.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <string>

#include "core/jobs/ParallelFor.h"
#include "core/metrics/LabelWords.h"
#include "core/metrics/SameGrid.h"

namespace delineate::core {

namespace {

using ClassCounts = std::array<std::size_t, 5>;  // by agreement value (0 unused)

// Agreement value of one voxel pair, all labels.
std::uint16_t anyLabelValue(std::uint16_t r, std::uint16_t t) {
  if (r == t) {
    return r == 0 ? 0 : kAgreementBoth;
  }
  if (r == 0) {
    return kAgreementTestOnly;
  }
  return t == 0 ? kAgreementReferenceOnly : kAgreementDifferentLabel;
}

// Agreement value of one voxel pair for one label.
std::uint16_t oneLabelValue(std::uint16_t r, std::uint16_t t, std::uint16_t label) {
  const bool x = r == label, y = t == label;
  if (x && y) {
    return kAgreementBoth;
  }
  if (y) {
    return kAgreementTestOnly;
  }
  return x ? kAgreementReferenceOnly : 0;
}

// One row: writes the non-zero values into out (already zero) and counts them.
void agreeRow(const std::uint16_t* r, const std::uint16_t* t, std::size_t n, std::uint16_t label,
              std::uint16_t* out, ClassCounts& counts) {
  for (std::size_t i = 0; i < n;) {
    // Background in both, eight voxels at a time: nothing to write.
    if (i + 8 <= n && (load4(r + i) | load4(r + i + 4) | load4(t + i) | load4(t + i + 4)) == 0) {
      i += 8;
      continue;
    }
    for (const std::size_t end = std::min(n, i + 8); i < end; ++i) {
      const std::uint16_t v =
          label == 0 ? anyLabelValue(r[i], t[i]) : oneLabelValue(r[i], t[i], label);
      out[i] = v;
      ++counts[v];
    }
  }
}

std::string labelName(const LabelMap& reference, const LabelMap& test, std::uint16_t label) {
  for (const LabelMap* map : {&reference, &test}) {
    if (const Segment* s = map->segment(label); s && !s->name.empty()) {
      return s->name;
    }
  }
  return "label " + std::to_string(label);
}

}  // namespace

std::vector<Segment> agreementSegments(bool allLabels) {
  // Okabe & Ito's colour-blind-safe palette.
  struct Entry {
    std::uint16_t value;
    const char* name;
    std::array<std::uint8_t, 3> color;
  };
  static const Entry entries[] = {
      {kAgreementBoth, "Agreement", {0, 158, 115}},                                  // bluish green
      {kAgreementTestOnly, "Test only (false positive)", {230, 159, 0}},             // orange
      {kAgreementReferenceOnly, "Reference only (false negative)", {86, 180, 233}},  // sky blue
      {kAgreementDifferentLabel, "Different label", {204, 121, 167}},  // reddish purple
  };
  std::vector<Segment> out;
  for (const Entry& e : entries) {
    if (e.value == kAgreementDifferentLabel && !allLabels) {
      continue;
    }
    Segment s;
    s.label = e.value;
    s.name = e.name;
    s.color = e.color;
    s.algorithmType = "AUTOMATIC";
    out.push_back(std::move(s));
  }
  return out;
}

Agreement agreementMap(const LabelMap& reference, const LabelMap& test, std::uint16_t label,
                       ProgressSink& progress) {
  requireSameGrid(reference, test);
  std::string name = "Agreement: " + reference.name() + " vs " + test.name();
  if (label != 0) {
    name += ", " + labelName(reference, test, label);
  }
  auto map = std::make_shared<LabelMap>(std::move(name), reference.geometry(),
                                        agreementSegments(label == 0));
  const Size3& s = reference.geometry().size;
  const unsigned threads = hardwareThreads();
  const std::size_t slabs = std::min<std::size_t>(s[2], std::size_t(threads) * 4);
  std::vector<ClassCounts> perSlab(slabs, ClassCounts{});
  const std::uint16_t* ref = reference.data();
  const std::uint16_t* tst = test.data();
  std::uint16_t* out = map->mutableData();
  std::atomic<std::size_t> done{0};
  parallelFor(slabs, threads, progress, [&](std::size_t slab) {
    const std::size_t k0 = s[2] * slab / slabs, k1 = s[2] * (slab + 1) / slabs;
    for (std::size_t k = k0; k < k1; ++k) {
      progress.throwIfCancelled();
      for (std::size_t j = 0; j < s[1]; ++j) {
        const std::size_t row = reference.index(0, j, k);
        agreeRow(ref + row, tst + row, s[0], label, out + row, perSlab[slab]);
      }
      progress.report(double(++done) / double(s[2]), "Agreement map");
    }
  });
  ClassCounts total{};
  for (const ClassCounts& c : perSlab) {
    for (std::size_t v = 0; v < c.size(); ++v) {
      total[v] += c[v];
    }
  }
  Agreement result;
  result.map = std::move(map);
  result.counts = {total[kAgreementBoth], total[kAgreementTestOnly], total[kAgreementReferenceOnly],
                   total[kAgreementDifferentLabel]};
  progress.report(1.0, "Agreement map");
  return result;
}

}  // namespace delineate::core
