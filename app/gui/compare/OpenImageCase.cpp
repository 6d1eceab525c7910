#include "app/gui/compare/OpenImageCase.h"

#include <string>

#include "core/io/LabelMapFileIO.h"
#include "core/io/NiftiWriter.h"
#include "core/io/VolumeFileIO.h"

namespace delineate::app {

core::upload::DatasetCase writeOpenImageCase(
    const core::Volume& image, const std::vector<std::shared_ptr<const core::LabelMap>>& maps,
    const std::filesystem::path& folder, core::ProgressSink& progress) {
  std::filesystem::create_directories(folder);
  // A name of its own per call: the same window may add several images one after another.
  std::string stem = "open-image";
  for (int n = 2; std::filesystem::exists(folder / (stem + ".nii.gz")); ++n) {
    stem = "open-image-" + std::to_string(n);
  }
  core::upload::DatasetCase picked;
  picked.image = folder / (stem + ".nii.gz");
  core::SubProgress writingImage(progress, 0, 0.5);
  core::writeNiftiFile(image, picked.image, writingImage);
  for (std::size_t i = 0; i < maps.size(); ++i) {
    const double share = 0.5 / double(maps.size());
    core::SubProgress writingLabels(progress, 0.5 + share * double(i), 0.5 + share * double(i + 1));
    const auto file =
        folder / (stem + "_labels" + (i == 0 ? "" : std::to_string(i + 1)) + ".nii.gz");
    core::writeLabelMapFiles(*maps[i], file, writingLabels);
    picked.labels.push_back(file);
  }
  progress.report(1, "written");
  return picked;
}

}  // namespace delineate::app
