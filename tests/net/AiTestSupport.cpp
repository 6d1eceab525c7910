#include "AiTestSupport.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/io/DicomHeader.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/mammo/MammoViewDicom.h"
#include "core/sample/SampleWriter.h"

namespace delineate::test {

BallImage::BallImage(core::ai::VoxelIndex at, double radiusMm) : centre(at) {
  core::ImageGeometry g;
  g.size = {48, 44, 40};
  g.spacing = {0.9, 0.9, 1.5};
  g.origin = {-20, -18, 30};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  truth = std::make_shared<core::LabelMap>("truth", g, std::vector<core::Segment>{{.label = 1}});
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0, 12);
  auto* v = voxels->as<std::int16_t>();
  for (std::size_t k = 0, n = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i, ++n) {
        const double dx = (double(i) - double(centre[0])) * g.spacing[0];
        const double dy = (double(j) - double(centre[1])) * g.spacing[1];
        const double dz = (double(k) - double(centre[2])) * g.spacing[2];
        const bool in = dx * dx + dy * dy + dz * dz <= radiusMm * radiusMm;
        v[n] = static_cast<std::int16_t>((in ? 180.0 : 40.0) + noise(rng));
        truth->mutableData()[n] = in ? 1 : 0;
      }
    }
  }
  core::VolumeInfo info;
  info.sourcePath = "ball";
  info.modality = "CT";
  image = std::make_shared<const core::Volume>(g, voxels, info);
}

double dice(const core::LabelMap& a, const core::LabelMap& b) {
  std::size_t both = 0, na = 0, nb = 0;
  for (std::size_t i = 0; i < a.voxelCount(); ++i) {
    const bool x = a.data()[i] != 0, y = b.data()[i] != 0;
    both += x && y;
    na += x;
    nb += y;
  }
  return na + nb == 0 ? 1.0 : 2.0 * double(both) / double(na + nb);
}

MammoViewFile writeMammoView(const std::filesystem::path& folder, const std::string& laterality,
                             const std::string& view) {
  MammoViewFile out{
      core::sample::makeMammogram(core::sample::kDefaultSeed, laterality, view, false), {}};
  core::DicomWriteOptions options;
  options.filePrefix = out.sample.name;
  options.bitsStored = 12;
  const bool right = laterality == "R";
  std::string orientation = right ? "P\\" : "A\\";
  orientation += view == "MLO" ? "F" : (right ? "L" : "R");
  options.attributes = {
      {"ImageLaterality", laterality},     {"ViewPosition", view},
      {"PatientOrientation", orientation}, {"PresentationIntentType", "FOR PRESENTATION"},
      {"BodyPartExamined", "BREAST"},      {"ImagerPixelSpacing", "0.13\\0.13"}};
  core::NullProgress progress;
  const auto files = core::writeDicomSeries(*out.sample.image, folder, options, progress);
  out.file = files.at(0);
  return out;
}

core::mammo::DetectorImage readMammoView(const std::filesystem::path& file) {
  core::NullProgress progress;
  const core::DicomFileHeader header = core::readDicomHeader(file.string());
  core::DicomSeries series;
  const core::DicomScanResult scan = core::scanDicomFolder(file.parent_path(), progress);
  for (const core::DicomSeries* s : scan.allSeries()) {
    if (std::find(s->files.begin(), s->files.end(), file.string()) != s->files.end()) {
      series = *s;
    }
  }
  series.files = {file.string()};
  series.frames = 1;
  return {core::loadDicomSeries(series, progress),
          core::mammo::mammoViewOf(header, header.sopInstanceUid)};
}

std::pair<double, double> labelCentroid(const core::sample::SampleCase& c, std::uint16_t value) {
  const auto& g = c.labels->geometry();
  const auto* labels = c.labels->data<std::uint16_t>();
  double sc = 0, sr = 0, n = 0;
  for (std::size_t i = 0; i < g.voxelCount(); ++i) {
    if (labels[i] == value) {
      sc += double(i % g.size[0]), sr += double(i / g.size[0]), n += 1;
    }
  }
  return {sc / std::max(n, 1.0), sr / std::max(n, 1.0)};
}

LocalServer::LocalServer(const std::filesystem::path& datastore, std::string trainCommand,
                         std::optional<server::AuthOptions> auth,
                         std::vector<std::pair<std::string, int>> labels,
                         server::NnInteractiveOptions nnInteractive) {
  server::ServerOptions options;
  options.datastore = datastore;
  options.trainCommand = std::move(trainCommand);
  options.auth = std::move(auth);
  options.labels = std::move(labels);
  options.nnInteractive = std::move(nnInteractive);
  app_ = std::make_unique<server::MonaiServer>(std::make_shared<annotation::LocalEngineBackend>(),
                                               options);
  url_ = "http://127.0.0.1:" + std::to_string(core::net::freeLocalPort());
  http_ = std::make_unique<core::net::HttpServer>(
      url_, [this](const core::net::ServerRequest& r) { return app_->handle(r); });
}

}  // namespace delineate::test
