#pragma once
// Asymmetries for the built-in demonstration detector: each breast against the other breast's
// same view, mirrored so that the chest walls line up (distance from the chest wall, height from
// the tissue's centre of area). Both are smoothed over ~1 cm (masked box means of the tissue on
// the ~1 mm copies) and put on a common scale (minus the tissue's median, over its 5-95 % range);
// where one is denser than the same place on the other side by `excess`, the score is
// 0.95 / (1 + exp(-(excess - 0.75) / 0.08)).
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/mammo/DemoBreastImage.h"
#include "core/mammo/MammoFindings.h"

namespace delineate::core::mammo {

// Marks of kind "asymmetry" in `b` with score >= `threshold`, in image pixels, best first
// (centres at least 20 mm apart). `heat` (b.coarse's grid) is raised to the score map.
std::vector<FindingMark> findAsymmetries(const BreastImage& b, const BreastImage& other,
                                         double threshold, FloatImage& heat,
                                         ProgressSink& progress);

}  // namespace delineate::core::mammo
