#pragma once
// The tissues present in a set of voxel values: the modes of their (smoothed) histogram.
#include <vector>

namespace delineate::annotation {

struct HistogramMode {
  double value = 0;
  // The mode's hill: where the smoothed histogram, falling away from the mode, drops below 10 %
  // of the mode's height or starts to rise again.
  double lo = 0, hi = 0;
};

// Modes of the histogram of `values`, in increasing order. The histogram has bins of sd / 2
// and is smoothed with a Gaussian of `sd`; a local maximum counts when its prominence (height
// above the higher of the valleys that separate it from higher maxima) is at least
// `minProminence` of its height and at least `minCount` values lie within 2 sd of it.
std::vector<HistogramMode> histogramModes(const std::vector<float>& values, double sd,
                                          double minProminence = 0.3, double minCount = 10);

}  // namespace delineate::annotation
