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

MsdDatasetWriter::MsdDatasetWriter(fs::path folder, std::string name, std::string modality)
    : folder_(std::move(folder)), modality_(std::move(modality)) {
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
      if (pair.is_object() && pair.contains("image") && pair["image"].is_string()) {
        const std::string id = fs::path(pair["image"].get<std::string>()).filename().string();
        training_[id.substr(0, id.find('.'))] = pair;
      }
    }
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
  writeCaseFiles(prepared, folder_ / "imagesTr" / (prepared.id + ".nii.gz"),
                 folder_ / "labelsTr" / (prepared.id + ".nii.gz"));
  if (!modality_.empty()) {
    index_["modality"]["0"] = modality_;
  } else if (!index_["modality"].contains("0") || index_["modality"]["0"] == "unknown") {
    index_["modality"]["0"] = msdModality(prepared.image->info().modality);
  }
  for (const json& l : prepared.labelInfo) {
    index_["labels"][std::to_string(l.value("idx", 0))] = l.value("name", "");
  }
  training_[prepared.id] = {{"image", "./imagesTr/" + prepared.id + ".nii.gz"},
                            {"label", "./labelsTr/" + prepared.id + ".nii.gz"}};
  writeIndex();
}

void MsdDatasetWriter::writeIndex() {
  json training = json::array();
  for (const auto& [id, pair] : training_) {
    training.push_back(pair);
  }
  index_["training"] = training;
  index_["numTraining"] = training.size();
  index_["numTest"] = index_.value("numTest", 0);
  if (!index_.contains("test")) {
    index_["test"] = json::array();
  }
  writeTextAtomically(folder_ / "dataset.json", index_.dump(2), "dataset.json");
}

}  // namespace delineate::core::upload
