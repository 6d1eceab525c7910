#pragma once
// A demonstration automatic model for the synthetic brain MR sample (core/sample, T1-weighted):
// no atlas, no training, not for clinical use. It finds the tissues by the modes of the
// image's histogram in the middle of the head, then
//  - white matter: the point-guided segmenter from a click deep in the brightest large tissue;
//  - lateral ventricles: the same from a click in each of the two largest dark (CSF) blobs near
//    the middle;
//  - left and right hippocampus: the blobs of grey-matter intensity enclosed by the white matter
//    (cavities of its mask), one on each side of the midline, below the ventricles.
// Each result is named like the sample's segments; the test measures its Dice against them.
#include <string>
#include <vector>

#include "annotation/engine/SegmenterOptions.h"
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

struct AutoSegment {
  std::string name;
  BoxMask mask;
};

class AutoSegmenter {
 public:
  explicit AutoSegmenter(SegmenterOptions options = {}) : options_(options) {}

  // The structures found (those it cannot find are left out). Throws core::CancelledError when
  // progress is cancelled.
  std::vector<AutoSegment> segmentBrainMr(const core::Volume& image,
                                          core::ProgressSink& progress) const;

 private:
  SegmenterOptions options_;
};

}  // namespace delineate::annotation
