#include "core/upload/MsdDatasetWriter.h"

#include <fstream>
#include <sstream>

#include "core/Error.h"
#include "core/io/AtomicFile.h"

namespace delineate::core::upload {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string msdModality(const std::string& dicomModality) {
  if (dicomModality == "MR") {
    return "MRI";
  }
  return dicomModality.empty() || dicomModality == "OT" ? "unknown" : dicomModality;
}

}  // namespace

MsdDatasetWriter::MsdDatasetWriter(fs::path folder, std::string name, std::string modality,
                                   DatasetLayout layout)
    : folder_(std::move(folder)), modality_(std::move(modality)), layout_(layout) {
  std::error_code ec;
  fs::create_directories(folder_ / "imagesTr", ec);
  fs::create_directories(folder_ / "labelsTr", ec);
  if (ec) {
    throw Error(ErrorKind::Io, folder_.string(),
                "cannot create the dataset folder: " + ec.message());
  }
  const fs::path indexPath = folder_ / "dataset.json";
  if (fs::exists(indexPath)) {
    std::ifstream in(indexPath);
    std::stringstream text;
    text << in.rdbuf();
    index_ = json::parse(text.str(), nullptr, false);
    if (!index_.is_object()) {
      throw Error(ErrorKind::InvalidInput, indexPath.string(), "is not a dataset.json");
    }
    for (const json& pair : index_.value("training", json::array())) {
      if (pair.is_object() && pair.contains("label") && pair["label"].is_string()) {
        const std::string id = fs::path(pair["label"].get<std::string>()).filename().string();
        training_[id.substr(0, id.find('.'))] = pair;
      }
    }
    if (layout_ == DatasetLayout::NnUnet) {
      for (const auto& entry : fs::directory_iterator(folder_ / "labelsTr", ec)) {
        const std::string file = entry.path().filename().string();
        if (file.ends_with(".nii.gz")) {
          const std::string id = file.substr(0, file.size() - 7);
          training_[id] = {{"image", "./imagesTr/" + id + "_0000.nii.gz"},
                           {"label", "./labelsTr/" + file}};
        }
      }
    }
  } else if (layout_ == DatasetLayout::NnUnet) {
    index_ = {{"name", name},
              {"description", "Exported by Delineate"},
              {"channel_names", json::object()},
              {"labels", {{"background", 0}}},
              {"file_ending", ".nii.gz"}};
  } else {
    index_ = {{"name", name},
              {"description", "Exported by Delineate"},
              {"tensorImageSize", "3D"},
              {"modality", json::object()},
              {"labels", {{"0", "background"}}}};
  }
}

void MsdDatasetWriter::add(const PreparedCase& prepared) {
  if (!prepared.sendable() || !prepared.label) {
    throw Error(ErrorKind::InvalidInput, prepared.source, "has no usable label to export");
  }
  const bool nnUnet = layout_ == DatasetLayout::NnUnet;
  const std::string imageName = prepared.id + (nnUnet ? "_0000.nii.gz" : ".nii.gz");
  writeCaseFiles(prepared, folder_ / "imagesTr" / imageName,
                 folder_ / "labelsTr" / (prepared.id + ".nii.gz"));
  json& modality = index_[nnUnet ? "channel_names" : "modality"];
  if (!modality_.empty()) {
    modality["0"] = modality_;
  } else if (!modality.contains("0") || modality["0"] == "unknown") {
    // nnU-Net normalises "CT" by its intensity statistics, anything else per image.
    modality["0"] = msdModality(prepared.image->info().modality);
  }
  for (const json& l : prepared.labelInfo) {
    const int value = l.value("idx", 0);
    const std::string name = l.value("name", "");
    if (nnUnet) {
      index_["labels"][name.empty() ? "label " + std::to_string(value) : name] = value;
    } else {
      index_["labels"][std::to_string(value)] = name;
    }
  }
  training_[prepared.id] = {{"image", "./imagesTr/" + imageName},
                            {"label", "./labelsTr/" + prepared.id + ".nii.gz"}};
  writeIndex();
}

void MsdDatasetWriter::setField(const std::string& key, const json& value) {
  index_[key] = value;
  writeIndex();
}

void MsdDatasetWriter::writeIndex() {
  json training = json::array();
  for (const auto& [id, pair] : training_) {
    training.push_back(pair);
  }
  index_["numTraining"] = training.size();
  if (layout_ == DatasetLayout::Msd) {
    // nnU-Net v2 lists no pairs: it finds them by file name.
    index_["training"] = training;
    index_["numTest"] = index_.value("numTest", 0);
    if (!index_.contains("test")) {
      index_["test"] = json::array();
    }
  }
  writeTextAtomically(folder_ / "dataset.json", index_.dump(2), "dataset.json");
}

}  // namespace delineate::core::upload
