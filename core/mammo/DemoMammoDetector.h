#pragma once
// The built-in demonstration detector, so that the AI findings flow (marks, heatmaps, case score)
// works offline with no server. Classical image processing, not a trained model: its output is
// flagged `demonstration` and must never be read as a diagnosis.
//
// Per image (2-D, any scalar type; MONOCHROME1 inverted; mm scales from the pixel spacing; the
// breast is what stands above the background, DemoBreastImage.h):
//   - "mass": regions brighter than their surroundings on nearly every side and than the tissue
//     in general, at a radius of 4-12 mm, on a block-mean copy of ~1 mm pixels, inside the breast
//     and outside the pectoral muscle (DemoMassFinder.h, DemoPectoralMuscle.h);
//   - "calcification": clusters of >= 3 tiny very bright spots within 8 mm of each other, from a
//     white top-hat at full resolution (DemoCalcificationFinder.h);
//   - "asymmetry": regions much denser than the same place in the other breast's same view,
//     mirrored with the chest walls aligned (DemoAsymmetryFinder.h), when that view is given.
// Scores are at most 0.95 (this detector is never certain). Each image gets a heatmap on the
// ~1 mm grid (step 8 image pixels, 16 for pixels under 0.094 mm; heatmap pixel (i, j) covers image
// columns [i * step, (i + 1) * step) and likewise rows): per heatmap pixel the highest score any
// of the three gives there. Marks scoring below `markThreshold` are left out; the rest are sorted
// by score, highest first. The case's risk score is 1 - prod(1 - s) over the breasts, s the
// highest mark score of the breast's images (0 without marks; an image of unknown laterality
// counts as a breast of its own): the chance that either breast has something, if the scores
// were probabilities, and a lesion seen in both views counts once.
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/mammo/MammoFindings.h"
#include "core/mammo/MammoView.h"
#include "core/model/Volume.h"

namespace delineate::core::mammo {

// What StudyFindings::source says for this detector.
inline constexpr const char* kDemoDetectorSource =
    "Built-in demonstration detector (not a diagnosis)";

struct DetectorImage {
  VolumePtr image;  // 2-D: z size 1
  MammoView view;   // view.id becomes ImageFindings::imageId
};

class DemoMammoDetector {
 public:
  struct Options {
    double markThreshold = 0.3;  // marks scoring below this are not reported
  };

  DemoMammoDetector() = default;
  explicit DemoMammoDetector(Options options) : options_(options) {}

  // One ImageFindings per input, in input order. Reports progress; throws CancelledError when
  // cancelled, Error(Unsupported) for an image with more than one slice, Error(InvalidInput) for
  // a null image.
  StudyFindings run(const std::vector<DetectorImage>& images, ProgressSink& progress) const;

 private:
  Options options_;
};

// DemoMammoDetector().run(images, progress): the detector with its default options, as a job.
StudyFindings detectDemoFindings(const std::vector<DetectorImage>& images, ProgressSink& progress);

}  // namespace delineate::core::mammo
