// MammoFindingsController: a probability map opened as an image becomes an image's heatmap.
#include <QFileInfo>
#include <QInputDialog>
#include <QStringList>

#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/shell/JobRunner.h"
#include "core/Error.h"

namespace delineate::app {

namespace cm = core::mammo;

void MammoFindingsController::openHeatmapFile(const QString& file, const QString& imageTitle) {
  const std::filesystem::path path = file.toStdString();
  jobs_->run<cm::ProbabilityImage>(
      tr("Reading the heatmap %1").arg(QFileInfo(file).fileName()),
      [path](core::ProgressSink& progress) { return cm::readProbabilityImage(path, progress); },
      [this, file, imageTitle](cm::ProbabilityImage map) { placeHeatmap(file, map, imageTitle); },
      [this, file](const QString& error, bool cancelled) {
        if (!cancelled) {
          reportError(tr("Cannot read the heatmap %1:\n%2").arg(file, error));
        }
      });
}

void MammoFindingsController::placeHeatmap(const QString& file, const cm::ProbabilityImage& map,
                                           const QString& imageTitle) {
  // The current study's loaded images that the map could belong to.
  struct Candidate {
    std::size_t view;
    const viewers::MammoImage* image;
  };
  std::vector<Candidate> fitting;
  const Candidate* named = nullptr;
  std::vector<Candidate> all;
  const auto& views = feature_->files().views;
  for (std::size_t i = 0; i < views.size(); ++i) {
    const viewers::MammoImage* image = feature_->image(i);
    if (image != nullptr && views[i].studyUid == feature_->hanging().currentStudy) {
      all.push_back({i, image});
    }
  }
  for (const Candidate& c : all) {
    const bool byUid =
        !map.referencedImage.empty() && c.image->sopInstanceUid == map.referencedImage;
    if (byUid ||
        (map.referencedImage.empty() && !imageTitle.isEmpty() && c.image->title == imageTitle)) {
      named = &c;
    }
    try {
      cm::heatmapOnImage(map, c.image->placed.columns, c.image->placed.rows, {});
      fitting.push_back(c);
    } catch (const core::Error&) {
    }
  }
  if (!map.referencedImage.empty() && named == nullptr) {
    reportError(tr("The heatmap %1 belongs to the image %2, which is not in the study shown.")
                    .arg(file, QString::fromStdString(map.referencedImage)));
    return;
  }
  Candidate target{};
  if (named != nullptr) {
    target = *named;
  } else if (fitting.size() == 1) {
    target = fitting.front();
  } else if (fitting.empty()) {
    reportError(tr("The heatmap %1 (%2 x %3) fits no image of the study shown.")
                    .arg(file)
                    .arg(map.columns)
                    .arg(map.rows));
    return;
  } else {
    QStringList titles;
    for (const Candidate& c : fitting) {
      titles << c.image->title;
    }
    bool ok = false;
    const QString chosen =
        interactive_
            ? QInputDialog::getItem(
                  nullptr, tr("Heatmap"),
                  tr("%1 fits several images. Which is it of?").arg(QFileInfo(file).fileName()),
                  titles, 0, false, &ok)
            : QString();
    if (!ok || chosen.isEmpty()) {
      if (!interactive_) {
        reportError(tr("The heatmap %1 fits %2: name the image.").arg(file, titles.join(", ")));
      }
      return;
    }
    target = fitting[static_cast<std::size_t>(titles.indexOf(chosen))];
  }
  cm::FindingHeatmap heatmap;
  try {
    heatmap = cm::heatmapOnImage(map, target.image->placed.columns, target.image->placed.rows,
                                 file.toStdString());
  } catch (const core::Error& e) {
    reportError(QString::fromUtf8(e.what()));
    return;
  }
  cm::StudyFindings f = findings_.value_or(cm::StudyFindings{});
  if (!findings_) {
    f.source = "Heatmap " + QFileInfo(file).fileName().toStdString() + " (" + map.kind + ")";
  }
  const std::string id = canonicalImageId(views[target.view].id);
  auto it = std::find_if(f.images.begin(), f.images.end(), [&](const cm::ImageFindings& i) {
    return canonicalImageId(i.imageId) == id;
  });
  if (it == f.images.end()) {
    f.images.push_back({id, {}, std::nullopt});
    it = std::prev(f.images.end());
  }
  it->heatmap = std::move(heatmap);
  setFindings(std::move(f));
  if (!map.warnings.empty()) {
    QStringList lines;
    for (const std::string& w : map.warnings) {
      lines << QString::fromStdString(w);
    }
    reportError(lines.join('\n'));
  }
}

}  // namespace delineate::app
