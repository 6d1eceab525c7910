// delineate-cli seg: DICOM Segmentation (SEG) export from a label file and import to one.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "CliProgress.h"
#include "Commands.h"
#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSegReader.h"
#include "core/io/DicomSegWriter.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/SegmentTableJson.h"

#ifndef DELINEATE_VERSION
#define DELINEATE_VERSION "0.0.0"
#endif

namespace delineate::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSegUsage =
    "usage: delineate-cli seg export --image SERIES_DIR --label LABEL.nii.gz\n"
    "                                [--segments SEGMENTS.json] --out SEG.dcm\n"
    "                                [--series UID] [--description TEXT] [--creator NAME]\n"
    "       delineate-cli seg import SEG.dcm --out LABEL.nii.gz [--image SERIES_DIR] [--series "
    "UID]\n"
    "  export: writes the label map drawn on the DICOM series as a binary DICOM SEG\n"
    "  import: writes the SEG as a label image + segment JSON (LABEL.json); on the grid of\n"
    "          the series it refers to when --image is given, else on its own grid\n";

struct SegArgs {
  std::vector<std::string> positional;
  std::string image, label, segments, out, series, description, creator;
};

// Parses "--name value" pairs; false (after a message) on an unknown option or missing value.
bool parse(const Args& args, SegArgs& a) {
  const std::pair<const char*, std::string*> options[] = {
      {"--image", &a.image},    {"--label", &a.label},   {"--segments", &a.segments},
      {"--out", &a.out},        {"--series", &a.series}, {"--description", &a.description},
      {"--creator", &a.creator}};
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (!args[i].starts_with("--")) {
      a.positional.push_back(args[i]);
      continue;
    }
    bool known = false;
    for (const auto& [name, value] : options) {
      if (args[i] == name && i + 1 < args.size()) {
        *value = args[++i];
        known = true;
        break;
      }
    }
    if (!known) {
      std::fprintf(stderr, "delineate-cli seg: unknown option or missing value: %s\n",
                   args[i].c_str());
      return false;
    }
  }
  return true;
}

// The series of `folder` to use: the one with `wantedUid`, else one the SEG refers to, else the
// largest image series that is not itself a segmentation.
core::VolumePtr openSeries(const fs::path& folder, const std::string& wantedUid,
                           const std::vector<std::string>& referenced,
                           core::ProgressSink& progress) {
  core::SubProgress scanning(progress, 0.0, 0.2);
  const core::DicomScanResult scan = core::scanDicomFolder(folder, scanning);
  const core::DicomSeries* chosen = nullptr;
  for (const core::DicomSeries* s : scan.allSeries()) {
    if (!wantedUid.empty()) {
      if (s->seriesInstanceUid == wantedUid) {
        chosen = s;
      }
      continue;
    }
    for (const std::string& uid : referenced) {
      if (s->seriesInstanceUid == uid) {
        chosen = s;
      }
    }
  }
  if (!chosen && wantedUid.empty()) {
    for (const core::DicomSeries* s : scan.allSeries()) {
      if (s->modality != "SEG" && (!chosen || s->frames > chosen->frames)) {
        chosen = s;
      }
    }
  }
  if (!chosen) {
    throw core::Error(core::ErrorKind::InvalidInput, folder.string(),
                      wantedUid.empty() ? "no DICOM image series found" : "no series " + wantedUid);
  }
  core::SubProgress loading(progress, 0.2, 1.0);
  return core::loadDicomSeries(*chosen, loading);
}

std::string gridText(const core::ImageGeometry& g) {
  return std::to_string(g.size[0]) + "x" + std::to_string(g.size[1]) + "x" +
         std::to_string(g.size[2]);
}

int runExport(const SegArgs& a) {
  if (a.image.empty() || a.label.empty() || a.out.empty() || !a.positional.empty()) {
    std::fputs(kSegUsage, stderr);
    return 2;
  }
  CliProgress progress;
  core::SubProgress loading(progress, 0.0, 0.4);
  const core::VolumePtr source = openSeries(a.image, a.series, {}, loading);
  core::LabelMap labels = core::readLabelMapFiles(a.label, &source->geometry());
  if (!a.segments.empty()) {
    // The given table describes the values it lists; the others keep what the label file had.
    for (const core::Segment& s : core::readSegmentTable(a.segments)) {
      if (core::Segment* existing = labels.segment(s.label)) {
        *existing = s;
      } else {
        labels.segments().push_back(s);
      }
    }
  }
  core::DicomSegOptions options;
  options.softwareVersions = DELINEATE_VERSION;
  if (!a.description.empty()) {
    options.seriesDescription = a.description;
  }
  if (!a.creator.empty()) {
    options.contentCreatorName = a.creator;
  }
  core::SubProgress writing(progress, 0.4, 1.0);
  core::writeDicomSeg(labels, *source, a.out, options, writing);
  const core::DicomSegSummary summary = core::readDicomSegSummary(a.out);
  std::printf("wrote %zu segments in %zu frames on the %s grid of series %s to %s\n",
              summary.segments, summary.frames, gridText(source->geometry()).c_str(),
              source->info().seriesInstanceUid.c_str(), a.out.c_str());
  return 0;
}

int runImport(const SegArgs& a) {
  if (a.positional.size() != 1 || a.out.empty()) {
    std::fputs(kSegUsage, stderr);
    return 2;
  }
  const fs::path seg = a.positional[0];
  CliProgress progress;
  core::ImageGeometry target;
  std::string onto = "its own grid";
  if (!a.image.empty()) {
    const core::DicomSegSummary summary = core::readDicomSegSummary(seg);
    core::SubProgress loading(progress, 0.0, 0.4);
    const core::VolumePtr source =
        openSeries(a.image, a.series, summary.referencedSeriesUids, loading);
    target = source->geometry();
    onto = "the grid of series " + source->info().seriesInstanceUid;
  } else {
    target = core::dicomSegGeometry(seg);
  }
  std::vector<std::string> warnings;
  core::SubProgress reading(progress, 0.4, 1.0);
  const core::LabelMap labels = core::readDicomSeg(seg, target, reading, &warnings);
  for (const std::string& w : warnings) {
    std::fprintf(stderr, "delineate-cli seg: warning: %s\n", w.c_str());
  }
  core::writeLabelMapFiles(labels, a.out);
  std::printf("wrote %zu segments on %s (%s) to %s and %s\n", labels.segments().size(),
              onto.c_str(), gridText(target).c_str(), a.out.c_str(),
              core::segmentTablePathFor(a.out).c_str());
  return 0;
}

}  // namespace

int runSeg(const Args& args) {
  SegArgs parsed;
  if (args.empty() || !parse(args, parsed)) {
    std::fputs(kSegUsage, stderr);
    return 2;
  }
  if (args[0] == "export") {
    return runExport(parsed);
  }
  if (args[0] == "import") {
    return runImport(parsed);
  }
  std::fputs(kSegUsage, stderr);
  return 2;
}

}  // namespace delineate::cli
