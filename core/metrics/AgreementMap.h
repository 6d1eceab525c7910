#pragma once
// The voxel-wise agreement of a reference and a test label map on one grid, as a new label map on
// that grid: what the compare view draws with the ordinary label overlay, one segment per class
// (so that showing or hiding a class is segment visibility). Values and colours: docs/metrics.md.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Segment.h"

namespace delineate::core {

// The values of an agreement map (0: background in both, or not the compared label in either).
enum AgreementValue : std::uint16_t {
  kAgreementBoth = 1,            // reference == test != 0
  kAgreementTestOnly = 2,        // test != 0, reference == 0 (false positive)
  kAgreementReferenceOnly = 3,   // reference != 0, test == 0 (false negative)
  kAgreementDifferentLabel = 4,  // both != 0 and they differ (all labels only)
};

struct AgreementCounts {
  std::size_t agree = 0;
  std::size_t testOnly = 0;
  std::size_t referenceOnly = 0;
  std::size_t differentLabel = 0;
  bool operator==(const AgreementCounts&) const = default;
};

struct Agreement {
  std::shared_ptr<LabelMap> map;
  AgreementCounts counts;
};

// The segments of an agreement map, in value order: "Agreement", "Test only (false positive)",
// "Reference only (false negative)" and, when `allLabels`, "Different label"; Okabe-Ito colours.
std::vector<Segment> agreementSegments(bool allLabels);

// `label` 0: every label (values 1 to 4); otherwise the masks reference == label and
// test == label (values 1 to 3). The map is named "Agreement: <reference> vs <test>" (plus
// ", <segment name>" for one label) and lies on the reference's grid. One pass over both maps in
// z-slabs on hardwareThreads() threads. Throws Error(InvalidInput) naming the difference when the
// grids differ; CancelledError when cancelled.
Agreement agreementMap(const LabelMap& reference, const LabelMap& test, std::uint16_t label,
                       ProgressSink& progress);

}  // namespace delineate::core
