// The mammography reading view's pixel path on a 4-view study of 4096 x 3328 16-bit images
// (12 bits stored, MG DICOM), printed as JSON:
//   - time to first frame: the study scanned, the four images read and each viewport drawn from
//     its coarse preview; time to full quality: every pyramid built and the viewports redrawn;
//   - pan/zoom frame time at full resolution (1:1, four 1024 x 832 viewports) and at fit:
//     ours (pyramid level, visible pixels only) against the plain full-frame LUT path (every
//     pixel of each image through the LUT, then the viewport sampled), on the same images;
//   - a window/level change frame (a new 65536-entry table, then the frame) against the same
//     plain path;
//   - the peak memory of the process that did all of it (its own fresh child).
// Usage: mammo_reading_benchmark [--dir CACHE] [--frames 40]
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ChildProcess.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/HangingAssignment.h"
#include "core/mammo/MammoStudyLoader.h"
#include "core/mammo/PyramidDisplayTable.h"
#include "core/mammo/PyramidRenderer.h"
#include "core/mammo/ReadingGeometry.h"
#include "core/sample/SampleRandom.h"
#include "core/sample/SampleVolumes.h"

namespace fs = std::filesystem;
using namespace delineate;
namespace cm = core::mammo;
using nlohmann::json;

namespace {

constexpr std::size_t kColumns = 3328, kRows = 4096;  // portrait, as detectors store them
constexpr int kViewWidth = 1024, kViewHeight = 832;

void writeStudy(const fs::path& dir) {
  fs::create_directories(dir);
  const char* views[4][2] = {{"R", "CC"}, {"L", "CC"}, {"R", "MLO"}, {"L", "MLO"}};
  for (auto& v : views) {
    const bool right = v[0][0] == 'R';
    core::ImageGeometry g;
    g.size = {kColumns, kRows, 1};
    g.spacing = {0.07, 0.07, 1};
    std::vector<float> px(kColumns * kRows);
    for (std::size_t r = 0; r < kRows; ++r) {
      for (std::size_t c = 0; c < kColumns; ++c) {
        const double depth = static_cast<double>(right ? kColumns - 1 - c : c) / kColumns;
        const double y = (static_cast<double>(r) / kRows - 0.5) * 2;
        const double rho = depth * depth / 0.7 + y * y;
        double value = 80;
        if (rho < 1) {
          value = 900 + 1400 * std::sqrt(1 - rho) +
                  300 * core::sample::hashUniform(core::sample::hashCombine(r / 16, c / 16, 7));
        }
        value += 20 * core::sample::hashUniform(core::sample::hashCombine(r, c, 3));
        px[r * kColumns + c] = static_cast<float>(std::min(4095.0, value));
      }
    }
    core::VolumeInfo info;
    info.modality = "MG";
    info.patientName = "BENCH^MAMMO";
    info.patientId = "BENCH";
    info.studyInstanceUid = "1.2.826.0.1.3680043.10.999.1";
    info.studyDate = "20260101";
    info.seriesInstanceUid = std::string("1.2.826.0.1.3680043.10.999.1.") + (right ? "1" : "2") +
                             (v[1][0] == 'C' ? "1" : "2");
    info.laterality = v[0];
    info.viewPosition = v[1];
    info.windows = {{"Default", 1800, 2600}};
    const auto volume = core::sample::uint16Volume(g, px, info);
    core::DicomWriteOptions o;
    o.filePrefix = std::string(v[0]) + v[1];
    o.bitsStored = 12;
    o.attributes = {{"ImageLaterality", v[0]},
                    {"ViewPosition", v[1]},
                    {"PresentationIntentType", "FOR PRESENTATION"}};
    core::NullProgress quiet;
    core::writeDicomSeries(*volume, dir, o, quiet);
  }
}

struct Port {
  cm::PyramidPtr pyramid;
  cm::PlacedImage placed;
  cm::ChestWall wanted;
  std::vector<std::uint8_t> table;
};

double renderAll(std::vector<Port>& ports, const cm::LinkedZoom& zoom,
                 std::vector<std::uint8_t>& target, bool plain,
                 std::vector<std::vector<std::uint8_t>>& scratch) {
  const double t0 = bench::now();
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const cm::ViewTransform t =
        cm::placeImage(ports[i].placed, ports[i].wanted, zoom, kViewWidth, kViewHeight);
    const cm::GreyTarget out{target.data(), kViewWidth, kViewHeight, kViewWidth};
    if (plain) {
      cm::renderFullFrame(*ports[i].pyramid, ports[i].table.data(), t, out, scratch[i]);
    } else {
      cm::renderPyramid(*ports[i].pyramid, ports[i].table.data(), t, out);
    }
  }
  return bench::now() - t0;
}

// Mean seconds per 4-view frame over `frames` pans (and, for `windowing`, a new window each).
double frames(std::vector<Port>& ports, bool oneToOne, bool plain, bool windowing, int count) {
  std::vector<std::uint8_t> target(kViewWidth * kViewHeight);
  std::vector<std::vector<std::uint8_t>> scratch(ports.size());
  double total = 0;
  for (int f = 0; f < count; ++f) {
    cm::LinkedZoom z;
    if (oneToOne) {
      z.pixelsPerMm = 1 / 0.07;
    }
    z.depthMm = 40.0 + f;
    z.heightMm = 120.0 + 0.5 * f;
    if (windowing) {
      const double t0 = bench::now();
      for (auto& p : ports) {
        cm::DisplaySettings s = cm::defaultDisplaySettings(*p.pyramid->volume());
        s.center += f;
        if (plain) {
          // The plain path maps every stored value directly (no index table to rebuild): its
          // cost is the full-frame map inside renderFullFrame.
          const cm::DisplayLut lut =
              cm::DisplayLut::build(p.pyramid->volume()->info(), core::ScalarType::UInt16, s);
          std::copy(lut.table(), lut.table() + 65536, p.table.begin());
        } else {
          p.table = cm::pyramidDisplayTable(*p.pyramid, s);
        }
      }
      total += bench::now() - t0;
    }
    total += renderAll(ports, z, target, plain, scratch);
  }
  return total / count;
}

json child(const fs::path& dir, int frameCount) {
  json out;
  const double t0 = bench::now();
  core::NullProgress quiet;
  cm::MammoStudyFiles files = cm::scanMammoFiles({dir}, quiet);
  const cm::HangingProtocol& protocol = *cm::builtinHangingProtocols().find("mammo-4up");
  const cm::Hanging hanging = cm::hang(protocol, files.views);
  std::vector<std::size_t> wanted;
  for (const auto& v : hanging.viewports) {
    wanted.push_back(*v.image);
  }
  std::vector<Port> ports(4);
  std::mutex m;
  int previews = 0, fulls = 0;
  double firstFrame = 0, fullQuality = 0;
  std::vector<std::uint8_t> target(kViewWidth * kViewHeight);
  cm::loadMammoImages(files, wanted, quiet, [&](const cm::LoadedMammoImage& image) {
    std::lock_guard lock(m);
    const std::size_t slot = std::find(wanted.begin(), wanted.end(), image.index) - wanted.begin();
    Port& p = ports[slot];
    if (!p.pyramid) {
      const auto& g = image.pyramid->volume()->geometry();
      p.placed = {g.size[0], g.size[1], g.spacing[0], image.storedWall};
      p.wanted = hanging.viewports[slot].chestWall;
      p.table = cm::pyramidDisplayTable(*image.pyramid,
                                        cm::defaultDisplaySettings(*image.pyramid->volume()));
    }
    p.pyramid = image.pyramid;
    cm::renderPyramid(*p.pyramid, p.table.data(),
                      cm::placeImage(p.placed, p.wanted, {}, kViewWidth, kViewHeight),
                      {target.data(), kViewWidth, kViewHeight, kViewWidth});
    if (!image.pyramid->complete() && ++previews == 4) {
      firstFrame = bench::now() - t0;
    }
    if (image.pyramid->complete() && ++fulls == 4) {
      fullQuality = bench::now() - t0;
    }
  });
  out["first_frame_s"] = firstFrame;
  out["full_quality_s"] = fullQuality;
  struct Case {
    const char* name;
    bool oneToOne;
    bool windowing;
  } cases[] = {{"pan_1to1", true, false}, {"pan_fit", false, false}, {"window_1to1", true, true}};
  for (const Case& c : cases) {
    const double ours = frames(ports, c.oneToOne, false, c.windowing, frameCount);
    const double plain = frames(ports, c.oneToOne, true, c.windowing, frameCount);
    out[c.name] = {
        {"ours_ms", ours * 1e3}, {"plain_full_frame_lut_ms", plain * 1e3}, {"ratio", ours / plain}};
  }
  std::size_t pyramidBytes = 0;
  for (const auto& p : ports) {
    pyramidBytes += p.pyramid->ownedBytes();
  }
  out["pyramid_extra_mib"] = static_cast<double>(pyramidBytes) / (1 << 20);
  out["image_mib"] = 4.0 * kColumns * kRows * 2 / (1 << 20);
  struct rusage ru {};
  ::getrusage(RUSAGE_SELF, &ru);
  out["peak_rss_mib"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path dir = fs::temp_directory_path() / "delineate-bench-mammo";
  int frameCount = 40;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--child" && i + 2 < argc) {
      std::printf("%s\n", child(argv[i + 2], std::stoi(argv[i + 1])).dump().c_str());
      return 0;
    }
    if (a == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else if (a == "--frames" && i + 1 < argc) {
      frameCount = std::stoi(argv[++i]);
    }
  }
  dir /= std::to_string(kColumns) + "x" + std::to_string(kRows);
  if (!fs::exists(dir / "done")) {
    fs::remove_all(dir);
    if (!bench::runInChild([&] { writeStudy(dir); })) {
      std::fprintf(stderr, "cannot write the study into %s\n", dir.c_str());
      return 1;
    }
    std::FILE* f = std::fopen((dir / "done").c_str(), "w");
    if (f != nullptr) {
      std::fclose(f);
    }
  }
  json result = bench::runJsonChild(argv[0], std::to_string(frameCount), dir);
  result["study"] = "4 views " + std::to_string(kColumns) + "x" + std::to_string(kRows) +
                    " 16-bit (12 stored), MG DICOM";
  result["viewports"] = "4 x " + std::to_string(kViewWidth) + "x" + std::to_string(kViewHeight);
  std::printf("%s\n", result.dump(2).c_str());
  return 0;
}
