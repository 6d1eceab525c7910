#pragma once
// For the AI client tests: a synthetic image with a known structure, and delineate-server's
// handler running in this process behind a real HTTP listener on 127.0.0.1.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "TempDir.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/server/MonaiServer.h"
#include "core/mammo/DemoMammoDetector.h"
#include "core/model/LabelMap.h"
#include "core/net/HttpServer.h"
#include "core/sample/SampleCase.h"

namespace delineate::test {

// A 48x44x40 CT-like image (0.9 x 0.9 x 1.5 mm, oblique-free) with a bright ball (radius 9 mm)
// at `centreIndex()` in noisy soft tissue; `truth()` is the ball.
struct BallImage {
  BallImage() : BallImage({24, 22, 20}) {}
  // The ball elsewhere, with another radius (mm).
  explicit BallImage(core::ai::VoxelIndex at, double radiusMm = 9.0);
  core::VolumePtr image;
  std::shared_ptr<core::LabelMap> truth;
  core::ai::VoxelIndex centre{24, 22, 20};
};

double dice(const core::LabelMap& a, const core::LabelMap& b);

// One view of the synthetic screening exam (core::sample::makeMammogram, default seed, current
// exam) written as one DICOM MG file under `folder` with the attributes the sample writer gives
// (Image Laterality, View Position, Presentation Intent Type, Imager Pixel Spacing, ...).
struct MammoViewFile {
  core::sample::SampleCase sample;
  std::filesystem::path file;
};
MammoViewFile writeMammoView(const std::filesystem::path& folder, const std::string& laterality,
                             const std::string& view);
// The DICOM file read back as the detector's input: pixels, and the view from its header (id =
// SOP Instance UID).
core::mammo::DetectorImage readMammoView(const std::filesystem::path& file);
// Centroid (column, row) of ground-truth label `value` of a sample image.
std::pair<double, double> labelCentroid(const core::sample::SampleCase& c, std::uint16_t value);

class LocalServer {
 public:
  // `auth`: sign-in on with these users and token lifetimes (AuthGate); nullopt: off.
  // `labels`: the label schema the server declares (ServerOptions::labels).
  explicit LocalServer(const std::filesystem::path& datastore, std::string trainCommand = {},
                       std::optional<server::AuthOptions> auth = std::nullopt,
                       std::vector<std::pair<std::string, int>> labels = {},
                       server::NnInteractiveOptions nnInteractive = {});
  const std::string& url() const { return url_; }
  server::MonaiServer& app() { return *app_; }

 private:
  std::unique_ptr<server::MonaiServer> app_;
  std::string url_;
  std::unique_ptr<core::net::HttpServer> http_;
};

}  // namespace delineate::test
