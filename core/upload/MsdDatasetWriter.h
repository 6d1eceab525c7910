#pragma once
// Writes cases as a Medical Segmentation Decathlon folder, the layout MONAI and most training code
// read: imagesTr/<id>.nii.gz, labelsTr/<id>.nii.gz and dataset.json (name, modality, labels,
// numTraining, training pairs); or as an nnU-Net v2 raw dataset: imagesTr/<id>_0000.nii.gz (the
// first channel), labelsTr/<id>.nii.gz and its dataset.json (channel_names, labels as name ->
// value, numTraining, file_ending). Cases are added one at a time (a dataset does not fit in
// memory); dataset.json is rewritten atomically after each, so a stopped export is a valid,
// smaller dataset. Adding to a folder that has a dataset.json keeps its cases. docs/datasets.md.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/upload/CasePreparation.h"

namespace delineate::core::upload {

enum class DatasetLayout { Msd, NnUnet };

class MsdDatasetWriter {
 public:
  // Throws Error(Io) naming the folder when it cannot be created, Error(InvalidInput) when its
  // dataset.json is not one.
  // `modality` ("CT", "MRI", ...) names channel 0; empty: the images' DICOM modality, "unknown"
  // for research files, which carry none.
  MsdDatasetWriter(std::filesystem::path folder, std::string name, std::string modality = {},
                   DatasetLayout layout = DatasetLayout::Msd);

  // An extra top-level field of dataset.json (the snapshot a dataset was exported from).
  void setField(const std::string& key, const nlohmann::json& value);

  // Writes a sendable case (image and label). Throws Error naming the file.
  void add(const PreparedCase& prepared);
  int cases() const { return static_cast<int>(training_.size()); }

 private:
  void writeIndex();

  std::filesystem::path folder_;
  std::string modality_;
  DatasetLayout layout_;
  nlohmann::json index_;
  std::map<std::string, nlohmann::json> training_;  // id -> {"image", "label"}
};

}  // namespace delineate::core::upload
