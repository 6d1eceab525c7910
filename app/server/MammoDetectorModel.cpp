#include "app/server/MammoDetectorModel.h"

#include "app/server/ClickParams.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/mammo/MammoViewDicom.h"

namespace delineate::server {

namespace fs = std::filesystem;
namespace mammo = core::mammo;
using nlohmann::json;

namespace {

const json& labelNames() {
  static const json names = {{"mass", 1}, {"calcification", 2}, {"asymmetry", 3}};
  return names;
}

// A folder of its own in the temporary folder, removed with everything in it when the object goes.
class ScratchFolder {
 public:
  ScratchFolder() {
    static std::atomic<unsigned> counter{0};
    path_ = fs::temp_directory_path() /
            ("delineate-upload-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

bool endsWithIgnoreCase(const std::string& text, const std::string& suffix) {
  if (text.size() < suffix.size()) {
    return false;
  }
  for (std::size_t i = 0; i < suffix.size(); ++i) {
    const char c = text[text.size() - suffix.size() + i];
    if (std::tolower(static_cast<unsigned char>(c)) != suffix[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

json mammoDetectorInfo() {
  return {{"type", "detection"},
          {"labels", labelNames()},
          {"dimension", 2},
          {"description",
           "The built-in demonstration detector for mammograms (classical image processing, "
           "no trained model): dense spots (mass) and clusters of tiny bright spots "
           "(calcification), with a score per mark and per image. A demonstration, not a "
           "diagnosis: never use it for reading. One 2-D image per request; asymmetry needs "
           "the other breast and is not reported here."},
          {"config", {{"mark_threshold", 0.3}}}};
}

namespace {

// The coarse heatmap spread over the image's pixels: each pixel takes the value of the block it
// lies in (0 where there is no heatmap).
core::VolumePtr heatmapOnGrid(const std::optional<mammo::FindingHeatmap>& heatmap,
                              const core::ImageGeometry& grid) {
  core::ImageGeometry g = grid;
  g.size[2] = 1;
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Float32, g.voxelCount());
  float* out = voxels->as<float>();
  for (std::size_t r = 0; r < g.size[1]; ++r) {
    for (std::size_t c = 0; c < g.size[0]; ++c) {
      float v = 0;
      if (heatmap && heatmap->step > 0) {
        const auto hc = static_cast<std::size_t>(double(c) / heatmap->step);
        const auto hr = static_cast<std::size_t>(double(r) / heatmap->step);
        if (hc < heatmap->columns && hr < heatmap->rows) {
          v = heatmap->values[hr * heatmap->columns + hc];
        }
      }
      out[r * g.size[0] + c] = v;
    }
  }
  core::VolumeInfo info;
  info.modality = "MG";
  return std::make_shared<const core::Volume>(g, std::move(voxels), std::move(info));
}

}  // namespace

bool isDicomUpload(const std::string& bytes, const std::string& filename) {
  return endsWithIgnoreCase(filename, ".dcm") || endsWithIgnoreCase(filename, ".dicom") ||
         (bytes.size() > 132 && bytes.compare(128, 4, "DICM") == 0);
}

mammo::DetectorImage readDicomUpload(const std::string& bytes, const std::string& filename,
                                     core::ProgressSink& progress) {
  const std::string what = "the uploaded DICOM file" + (filename.empty() ? "" : " " + filename);
  ScratchFolder folder;
  const fs::path file = folder.path() / "upload.dcm";
  {
    std::ofstream out(file, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      throw core::Error(core::ErrorKind::Io, file.string(), "cannot write a temporary file");
    }
  }
  const core::DicomScanResult scan = core::scanDicomFolder(folder.path(), progress);
  const std::vector<const core::DicomSeries*> series = scan.allSeries();
  if (series.empty()) {
    throw core::Error(
        core::ErrorKind::InvalidInput, what,
        "not a readable DICOM image" +
            (scan.problems.empty() ? std::string() : " (" + scan.problems.front().message + ")"));
  }
  if (series.front()->frames != 1) {
    throw core::Error(
        core::ErrorKind::Unsupported, what,
        std::to_string(series.front()->frames) + " frames; the detector takes one 2-D mammogram");
  }
  const core::DicomFileHeader header = core::readDicomHeader(file.string());
  mammo::DetectorImage image;
  image.image = core::loadDicomSeries(*series.front(), progress);
  image.view = mammo::mammoViewOf(header, header.sopInstanceUid.empty()
                                              ? (filename.empty() ? "upload" : filename)
                                              : header.sopInstanceUid);
  return image;
}

json mammoHeatmapInfo() {
  json info = mammoDetectorInfo();
  info["type"] = "segmentation";
  info["description"] =
      "The built-in demonstration detector's probability map as an image (float32 on the "
      "request's grid), with its marks as the params. A demonstration, not a diagnosis.";
  return info;
}

json runMammoDetector(mammo::DetectorImage image, const json& params, core::ProgressSink& progress,
                      core::VolumePtr* probability) {
  mammo::DemoMammoDetector::Options options;
  if (const auto t = params.find("mark_threshold"); t != params.end() && !t->is_null()) {
    if (!t->is_number() || !std::isfinite(t->get<double>()) || t->get<double>() < 0 ||
        t->get<double>() > 1) {
      throw core::Error(core::ErrorKind::InvalidInput, "params",
                        "\"mark_threshold\" must be a number in 0..1, not " + t->dump());
    }
    options.markThreshold = t->get<double>();
  }
  if (image.view.laterality == mammo::Laterality::Unknown) {
    image.view.laterality = mammo::parseLaterality(textParam(params, "laterality", ""));
  }
  if (image.view.view == mammo::ViewCode::Unknown) {
    image.view.view = mammo::parseViewCode(textParam(params, "view", ""));
  }
  if (image.view.id.empty()) {
    image.view.id = "image";
  }
  const mammo::StudyFindings findings = mammo::DemoMammoDetector(options).run({image}, progress);
  if (probability != nullptr) {
    *probability = heatmapOnGrid(findings.images.front().heatmap, image.image->geometry());
  }
  json boxes = json::array(), scores = json::array(), labels = json::array();
  for (const mammo::FindingMark& m : findings.images.front().marks) {
    boxes.push_back({m.x0, m.y0, m.x1, m.y1});
    scores.push_back(m.score);
    const auto value = labelNames().find(m.kind);
    labels.push_back(value != labelNames().end() ? *value : json(m.kind));
  }
  return {{"boxes", boxes},
          {"scores", scores},
          {"labels", labels},
          {"label_names", labelNames()},
          {"probability", findings.riskScore.value_or(0.0)},
          {"demonstration", true},
          {"laterality", image.view.laterality == mammo::Laterality::Unknown
                             ? json()
                             : json(mammo::toString(image.view.laterality))},
          {"view", image.view.view == mammo::ViewCode::Unknown
                       ? json()
                       : json(mammo::toString(image.view.view))}};
}

}  // namespace delineate::server
