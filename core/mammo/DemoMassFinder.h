#pragma once
// Mass-like findings for the built-in demonstration detector, on the ~1 mm copy of a mammogram
// (breast tissue only: masked box means, the pectoral muscle left out). At radii of 4 to 12 mm,
// the centre's box mean is compared with eight boxes around it at 2.2 radii and with the tissue's
// median: response = (half its excess over the second brightest surrounding box, so that an edge
// or one bright neighbour does not count, + half its excess over the median) / the tissue's
// 5-95 % intensity range, weighted from 0.8 (4 mm) to 1.0 (12 mm) so that larger masses count
// more; the best radius wins. Score = 0.95 / (1 + exp(-(response - 0.7) / 0.08)).
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/mammo/DemoBreastImage.h"
#include "core/mammo/MammoFindings.h"

namespace delineate::core::mammo {

// Marks of kind "mass" with score >= `threshold`, in image pixels, best first (centres at least
// 10 mm apart). `heat` (on b.coarse's grid) is raised to the score map where that is higher.
std::vector<FindingMark> findMasses(const BreastImage& b, double threshold, FloatImage& heat,
                                    ProgressSink& progress);

}  // namespace delineate::core::mammo
