#pragma once
// Calcification clusters for the built-in demonstration detector: at full resolution, tiny very
// bright spots (a white top-hat by a ~1.6 mm square after 3x3 smoothing; above a level of ten
// times the pixel noise, a twentieth of the tissue's range, and the top-hat's own median + 10
// robust deviations; 2 pixels to 2 mm^2), grouped when within 8 mm of each other (single
// linkage). A group of 3 or more is a cluster, scored
// 0.95 * (1 - 0.55^(spots - 2)) * clamp((median peak / level - 1.5) / 2, 0, 1).
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/mammo/DemoBreastImage.h"
#include "core/mammo/MammoFindings.h"

namespace delineate::core::mammo {

// Marks of kind "calcification" with score >= `threshold`, in image pixels, best first; each
// cluster's score is painted into `heat` (b.coarse's grid) over its box where that is higher.
std::vector<FindingMark> findCalcificationClusters(const BreastImage& b, double threshold,
                                                   FloatImage& heat, ProgressSink& progress);

}  // namespace delineate::core::mammo
