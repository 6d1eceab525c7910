#include "core/upload/DatasetCase.h"

#include <algorithm>

#include "core/Error.h"
#include "core/Text.h"
#include "core/ai/VolumeBytes.h"
#include "core/io/VolumeFileIO.h"

namespace delineate::core::upload {

namespace fs = std::filesystem;

namespace {

std::string stem(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.substr(0, name.size() - ai::fullExtension(name).size());
}

std::vector<fs::path> volumeFiles(const fs::path& folder) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.is_regular_file() && isVolumeFile(e.path()) &&
        e.path().filename().string().front() != '.') {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<DatasetCase> findDatasetCases(const fs::path& folder) {
  std::vector<DatasetCase> cases;
  if (fs::is_directory(folder / "imagesTr")) {
    for (const fs::path& image : volumeFiles(folder / "imagesTr")) {
      std::string name = stem(image);
      if (endsWith(name, "_0000")) {
        name.resize(name.size() - 5);
      }
      DatasetCase c{image, {}};
      for (const fs::path& label : volumeFiles(folder / "labelsTr")) {
        if (stem(label) == name) {
          c.labels.push_back(label);
        }
      }
      cases.push_back(std::move(c));
    }
  } else {
    for (const fs::path& file : volumeFiles(folder)) {
      if (endsWith(stem(file), "_labels")) {
        continue;
      }
      DatasetCase c{file, {}};
      for (const fs::path& label : volumeFiles(folder)) {
        if (stem(label) == stem(file) + "_labels") {
          c.labels.push_back(label);
        }
      }
      cases.push_back(std::move(c));
    }
  }
  if (cases.empty()) {
    throw Error(
        ErrorKind::InvalidInput, folder.string(),
        "holds no case (expected imagesTr/ and labelsTr/, or images with NAME_labels.nii.gz)");
  }
  return cases;
}

}  // namespace delineate::core::upload
