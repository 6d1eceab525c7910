#pragma once
// Writes cases as a Medical Segmentation Decathlon folder, the layout nnU-Net, MONAI and most
// training code read: imagesTr/<id>.nii.gz, labelsTr/<id>.nii.gz and dataset.json (name,
// modality, labels, numTraining, training pairs). Cases are added one at a time (a dataset does
// not fit in memory); dataset.json is rewritten atomically after each, so a stopped export is a
// valid, smaller dataset. Adding to a folder that has a dataset.json keeps its cases.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/upload/CasePreparation.h"

namespace delineate::core::upload {

class MsdDatasetWriter {
 public:
  // Throws Error(Io) naming the folder when it cannot be created, Error(InvalidInput) when its
  // dataset.json is not one.
  // `modality` ("CT", "MRI", ...) names channel 0; empty: the images' DICOM modality, "unknown"
  // for research files, which carry none.
  MsdDatasetWriter(std::filesystem::path folder, std::string name, std::string modality = {});

  // Writes a sendable case (image and label). Throws Error naming the file.
  void add(const PreparedCase& prepared);
  int cases() const { return static_cast<int>(training_.size()); }

 private:
  void writeIndex();

  std::filesystem::path folder_;
  std::string modality_;
  nlohmann::json index_;
  std::map<std::string, nlohmann::json> training_;  // id -> {"image", "label"}
};

}  // namespace delineate::core::upload
