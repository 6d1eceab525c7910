#pragma once
// A case of a labelled dataset as the user picked it: an image (a volume file, a DICOM series
// folder, or a series of a scan) and the label images drawn on it. Several label images of one case
// are merged into one map, in order (the datastore keeps one label per case).
#include <filesystem>
#include <optional>
#include <vector>

#include "core/io/DicomSeries.h"

namespace delineate::core::upload {

struct DatasetCase {
  std::filesystem::path image;
  std::vector<std::filesystem::path> labels;  // volume files, or DICOM SEG files
  // Picked in a DICOM scan (the study browser): exactly these files are the image, which
  // `image` (its first file) only names.
  std::optional<DicomSeries> series = std::nullopt;
};

// The cases of a folder: a Medical Segmentation Decathlon layout (imagesTr/NAME.nii.gz with
// labelsTr/NAME.nii.gz; "_0000" channel suffixes accepted), or volume files each with the label
// Delineate saves beside it (NAME_labels.nii.gz). Throws Error(InvalidInput) naming the folder
// when it holds no case.
std::vector<DatasetCase> findDatasetCases(const std::filesystem::path& folder);

}  // namespace delineate::core::upload
