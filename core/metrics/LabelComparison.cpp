#include "core/metrics/LabelComparison.h"

#include <algorithm>

#include "core/Error.h"
#include "core/metrics/SameGrid.h"

namespace delineate::core {

std::vector<LabelMetrics> compareLabelMaps(const LabelMap& reference, const LabelMap& test,
                                           const ComparisonOptions& options,
                                           ProgressSink& progress) {
  requireSameGrid(reference, test);
  std::vector<std::uint16_t> labels = options.labels;
  if (std::find(labels.begin(), labels.end(), std::uint16_t(0)) != labels.end()) {
    throw Error(ErrorKind::InvalidInput, reference.name(),
                "label 0 is the background and has no metrics");
  }
  const double overlapShare = options.surfaceMetrics ? 0.2 : 1.0;
  SubProgress overlapProgress(progress, 0.0, overlapShare);
  const OverlapCounts counts = countOverlaps(reference, test, overlapProgress);
  if (labels.empty()) {
    for (const LabelOverlap& c : counts.labels) {
      labels.push_back(c.label);
    }
  }

  const Vec3& sp = reference.geometry().spacing;
  const double voxelMl = sp[0] * sp[1] * sp[2] / 1000.0;
  std::vector<LabelMetrics> out;
  out.reserve(labels.size());
  for (const std::uint16_t label : labels) {
    LabelMetrics m;
    m.label = label;
    m.counts = counts.find(label);
    m.overlap = overlapMeasures(m.counts, voxelMl);
    out.push_back(m);
  }
  if (!options.surfaceMetrics) {
    progress.report(1.0, "Compared");
    return out;
  }

  // Surface work is proportional to each label's box: share the progress bar accordingly.
  double total = 0;
  for (const LabelMetrics& m : out) {
    total += double(m.counts.unionBox().count());
  }
  const SurfaceDistanceOptions surfaceOptions{options.toleranceMm, options.hausdorffPercentile};
  double done = 0;
  for (LabelMetrics& m : out) {
    const VoxelBox box = m.counts.unionBox();
    const double share = total > 0 ? double(box.count()) / total : 0.0;
    const double begin = overlapShare + (1.0 - overlapShare) * done;
    SubProgress labelProgress(progress, begin, begin + (1.0 - overlapShare) * share);
    m.surface = surfaceDistances(reference, test, m.label, box, surfaceOptions, labelProgress);
    done += share;
  }
  progress.report(1.0, "Compared");
  return out;
}

}  // namespace delineate::core
