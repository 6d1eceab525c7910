#include "app/gui/OpenImageCase.h"

#include <string>

#include "core/io/LabelMapFileIO.h"
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
  progress.report(0, "writing the image");
  core::writeVolumeFile(image, picked.image);
  for (std::size_t i = 0; i < maps.size(); ++i) {
    progress.throwIfCancelled();
    progress.report(0.5 + 0.5 * double(i) / double(maps.size()), "writing the label maps");
    const auto file =
        folder / (stem + "_labels" + (i == 0 ? "" : std::to_string(i + 1)) + ".nii.gz");
    core::writeLabelMapFiles(*maps[i], file);
    picked.labels.push_back(file);
  }
  progress.report(1, "written");
  return picked;
}

}  // namespace delineate::app
