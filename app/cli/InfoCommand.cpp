#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "CliProgress.h"
#include "Commands.h"
#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/PathLoader.h"
#include "core/io/VolumeFileIO.h"
#include "core/model/FrameSeries.h"

namespace delineate::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json describeVolume(const core::Volume& v) {
  const auto& g = v.geometry();
  const auto& info = v.info();
  const auto [lo, hi] = v.valueRange();
  json frames = nullptr;
  if (info.frames) {
    const core::FrameAxis& axis = info.frames->axis();
    frames = json{{"count", info.frames->count()},
                  {"dimension", axis.name},
                  {"unit", axis.unit},
                  {"values", axis.values}};
  }
  return json{{"modality", info.modality},
              {"patientName", info.patientName},
              {"patientId", info.patientId},
              {"studyInstanceUid", info.studyInstanceUid},
              {"studyDate", info.studyDate},
              {"studyDescription", info.studyDescription},
              {"seriesInstanceUid", info.seriesInstanceUid},
              {"seriesNumber", info.seriesNumber},
              {"seriesDescription", info.seriesDescription},
              {"dimensions", {g.size[0], g.size[1], g.size[2]}},
              {"frames", frames},
              {"scalarType", std::string(core::toString(v.scalarType()))},
              // Colour images: the channels' type (the scalar type is their luminance's).
              {"colour", v.hasColour() ? json(std::string(core::toString(v.sharedColour()->type())))
                                       : json(nullptr)},
              {"spacing", g.spacing},
              {"origin", g.origin},
              {"direction", g.direction},
              {"orientation", g.orientationCode()},
              {"transferSyntax", info.transferSyntax},
              {"photometric", info.photometric},
              {"valueRange", {lo, hi}},
              {"warnings", info.warnings}};
}

}  // namespace

int runInfo(const Args& args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "usage: delineate-cli info PATH\n");
    return 2;
  }
  const fs::path path = args[0];
  CliProgress progress;
  json out{{"path", path.string()}, {"series", json::array()}};
  std::error_code ec;
  if (fs::is_regular_file(path, ec) && core::isVolumeFile(path)) {
    out["series"].push_back(describeVolume(*core::readVolumeFile(path, progress)));
  } else {
    const fs::path root = fs::is_directory(path, ec) ? path : path.parent_path();
    const core::DicomScanResult scan = core::scanDicomFolder(root, progress);
    out["filesScanned"] = scan.filesScanned;
    out["nonDicomFiles"] = scan.nonDicomFiles;
    json problems = json::array();
    for (const auto& p : scan.problems) {
      problems.push_back({{"file", p.file}, {"message", p.message}});
    }
    out["problems"] = problems;
    for (const core::DicomSeries* s : scan.allSeries()) {
      json entry;
      try {
        core::NullProgress quiet;
        entry = describeVolume(*core::loadDicomSeries(*s, quiet));
      } catch (const core::Error& e) {
        entry = {{"seriesInstanceUid", s->seriesInstanceUid},
                 {"modality", s->modality},
                 {"seriesDescription", s->description},
                 {"error", e.what()}};
      }
      entry["files"] = s->files.size();
      entry["transferSyntaxUid"] = s->transferSyntaxUid;
      out["series"].push_back(std::move(entry));
    }
    if (scan.allSeries().empty()) {
      std::printf("%s\n", out.dump(2).c_str());
      std::fprintf(stderr, "delineate-cli info: %s: no image series found\n", path.c_str());
      return 1;
    }
  }
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace delineate::cli
