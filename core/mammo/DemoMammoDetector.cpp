#include "core/mammo/DemoMammoDetector.h"

#include <algorithm>
#include <map>
#include <optional>

#include "core/Error.h"
#include "core/mammo/DemoAsymmetryFinder.h"
#include "core/mammo/DemoBreastImage.h"
#include "core/mammo/DemoCalcificationFinder.h"
#include "core/mammo/DemoMassFinder.h"

namespace delineate::core::mammo {

namespace {

// The other breast's image of the same view (the first such), if any.
std::optional<std::size_t> mirrorOf(const std::vector<DetectorImage>& images, std::size_t i) {
  const MammoView& v = images[i].view;
  if (v.laterality == Laterality::Unknown || v.view == ViewCode::Unknown) {
    return std::nullopt;
  }
  for (std::size_t j = 0; j < images.size(); ++j) {
    const MammoView& w = images[j].view;
    if (j != i && w.view == v.view && w.laterality != Laterality::Unknown &&
        w.laterality != v.laterality && w.spot == v.spot && w.magnification == v.magnification) {
      return j;
    }
  }
  return std::nullopt;
}

}  // namespace

StudyFindings DemoMammoDetector::run(const std::vector<DetectorImage>& images,
                                     ProgressSink& progress) const {
  StudyFindings study;
  study.source = kDemoDetectorSource;
  study.demonstration = true;
  const double n = double(std::max<std::size_t>(images.size(), 1));
  // Per image: masses and calcifications, after which only the ~1 mm copy is kept.
  std::vector<BreastImage> breasts;
  std::vector<FloatImage> heats;
  for (std::size_t i = 0; i < images.size(); ++i) {
    progress.throwIfCancelled();
    SubProgress sub(progress, 0.95 * double(i) / n, 0.95 * double(i + 1) / n);
    if (!images[i].image) {
      throw Error(ErrorKind::InvalidInput, images[i].view.id, "no image to examine");
    }
    sub.report(0.0, "Preparing the image");
    BreastImage b =
        prepareBreastImage(*images[i].image, images[i].view.laterality, images[i].view.view);
    FloatImage heat(b.coarse.columns, b.coarse.rows);
    ImageFindings image;
    image.imageId = images[i].view.id;
    sub.report(0.2, "Looking for masses");
    image.marks = findMasses(b, options_.markThreshold, heat, sub);
    sub.report(0.3, "Looking for calcifications");
    for (FindingMark& m : findCalcificationClusters(b, options_.markThreshold, heat, sub)) {
      image.marks.push_back(std::move(m));
    }
    b.full = {};
    breasts.push_back(std::move(b));
    heats.push_back(std::move(heat));
    study.images.push_back(std::move(image));
  }
  // Each breast against the other one's same view.
  progress.report(0.95, "Comparing left and right");
  // The best mark score per breast (an image of unknown side counts as a breast of its own).
  std::map<std::pair<int, std::size_t>, double> best;
  for (std::size_t i = 0; i < images.size(); ++i) {
    progress.throwIfCancelled();
    ImageFindings& image = study.images[i];
    if (const auto j = mirrorOf(images, i)) {
      for (FindingMark& m :
           findAsymmetries(breasts[i], breasts[*j], options_.markThreshold, heats[i], progress)) {
        image.marks.push_back(std::move(m));
      }
    }
    std::stable_sort(image.marks.begin(), image.marks.end(),
                     [](const FindingMark& x, const FindingMark& y) { return x.score > y.score; });
    const Laterality side = images[i].view.laterality;
    const auto breast = std::make_pair(int(side), side == Laterality::Unknown ? i : 0);
    best[breast] = std::max(best[breast], image.marks.empty() ? 0.0 : image.marks.front().score);
    FindingHeatmap h;
    h.columns = heats[i].columns;
    h.rows = heats[i].rows;
    h.step = double(breasts[i].factor);
    h.values = std::move(heats[i].values);
    image.heatmap = std::move(h);
  }
  double none = 1;
  for (const auto& [breast, score] : best) {
    none *= 1 - score;
  }
  study.riskScore = 1 - none;
  progress.report(1.0, "Done");
  return study;
}

StudyFindings detectDemoFindings(const std::vector<DetectorImage>& images, ProgressSink& progress) {
  return DemoMammoDetector().run(images, progress);
}

}  // namespace delineate::core::mammo
