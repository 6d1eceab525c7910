#pragma once
// Per-label agreement between a reference and a test label map on the same grid: overlap
// (Dice, Jaccard, sensitivity, precision, volume difference) from one pass over both maps, and
// surface distances (Hausdorff, HD95, ASSD, surface Dice) per label over its bounding box.
// Definitions and conventions: docs/metrics.md.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/metrics/OverlapCounts.h"
#include "core/metrics/SurfaceDistances.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

struct ComparisonOptions {
  // Labels to compare, in this order; empty: every non-zero label present in either map.
  std::vector<std::uint16_t> labels;
  double toleranceMm = 1.0;           // surface Dice tolerance
  double hausdorffPercentile = 95.0;  // HD95 by default
  bool surfaceMetrics = true;         // off: overlap only (one pass, no distance transforms)
};

struct LabelMetrics {
  std::uint16_t label = 0;
  LabelOverlap counts;                           // voxel counts and bounding boxes
  OverlapMeasures overlap;                       // Dice, Jaccard, ...
  std::optional<SurfaceDistanceResult> surface;  // when ComparisonOptions::surfaceMetrics
};

// Throws Error(InvalidInput) naming the difference when the grids differ, or when label 0
// (background) is asked for; CancelledError when cancelled.
std::vector<LabelMetrics> compareLabelMaps(const LabelMap& reference, const LabelMap& test,
                                           const ComparisonOptions& options,
                                           ProgressSink& progress);

}  // namespace delineate::core
