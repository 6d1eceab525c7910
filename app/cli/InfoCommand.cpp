#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

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

json describeFrames(std::size_t count, const core::FrameAxis& axis) {
  if (count < 2) {
    return nullptr;
  }
  return json{
      {"count", count}, {"dimension", axis.name}, {"unit", axis.unit}, {"values", axis.values}};
}

json typeName(std::optional<core::ScalarType> type) {
  return type ? json(std::string(core::toString(*type))) : json(nullptr);
}

// The fields both descriptions share: identity and grid.
json describeImage(const core::VolumeInfo& info, const core::ImageGeometry& g) {
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
              {"spacing", g.spacing},
              {"origin", g.origin},
              {"direction", g.direction},
              {"orientation", g.orientationCode()},
              {"transferSyntax", info.transferSyntax},
              {"photometric", info.photometric},
              {"warnings", info.warnings}};
}

// A loaded image: its voxel type and value range are known.
json describeVolume(const core::Volume& v) {
  json out = describeImage(v.info(), v.geometry());
  const auto [lo, hi] = v.valueRange();
  const auto& frames = v.info().frames;
  out["frames"] = frames ? describeFrames(frames->count(), frames->axis()) : json(nullptr);
  out["scalarType"] = typeName(v.scalarType());
  // Colour images: the channels' type (the scalar type is their luminance's).
  out["colour"] = typeName(v.hasColour() ? std::optional(v.sharedColour()->type()) : std::nullopt);
  out["valueRange"] = {lo, hi};
  out["voxelsRead"] = true;
  return out;
}

// A DICOM series from its headers alone: no value range; the voxel type, or the types the
// voxel values choose between on loading.
json describeSummary(const core::DicomSeriesSummary& s) {
  json out = describeImage(s.info, s.geometry);
  out["frames"] = describeFrames(s.frameCount, s.frameAxis);
  out["scalarType"] = typeName(s.scalarType);
  if (!s.scalarType) {
    json candidates = json::array();
    for (core::ScalarType t : s.scalarTypeCandidates) {
      candidates.push_back(std::string(core::toString(t)));
    }
    out["scalarTypeCandidates"] = candidates;
  }
  out["colour"] = typeName(s.colourType);
  out["valueRange"] = nullptr;
  out["voxelsRead"] = false;
  return out;
}

}  // namespace

int runInfo(const Args& args) {
  // --voxels: decode every series (value ranges, the final voxel type); by default a folder is
  // listed from its headers alone.
  bool voxels = false;
  std::vector<std::string> positional;
  for (const std::string& a : args) {
    if (a == "--voxels") {
      voxels = true;
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 1) {
    std::fprintf(stderr, "usage: delineate-cli info [--voxels] PATH\n");
    return 2;
  }
  const fs::path path = positional[0];
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
        entry = voxels ? describeVolume(*core::loadDicomSeries(*s, quiet))
                       : describeSummary(core::summarizeDicomSeries(*s, quiet));
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
