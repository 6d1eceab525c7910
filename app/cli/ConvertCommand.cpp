#include <cstdio>
#include <filesystem>

#include "CliProgress.h"
#include "Commands.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/NiftiWriter.h"
#include "core/io/PathLoader.h"
#include "core/io/VolumeFileIO.h"
#include "core/model/FrameSeries.h"

namespace delineate::cli {

int runConvert(const Args& args) {
  std::vector<std::string> positional;
  std::string seriesUid;
  bool nifti2 = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--series" && i + 1 < args.size()) {
      seriesUid = args[++i];
    } else if (args[i] == "--nifti2") {
      nifti2 = true;
    } else {
      positional.push_back(args[i]);
    }
  }
  if (positional.size() != 2) {
    std::fprintf(stderr,
                 "usage: delineate-cli convert IN OUT [--series UID] [--nifti2]\n"
                 "  OUT ends in .nii, .nii.gz, .nrrd or .mha; --nifti2 writes NIfTI-2 (also\n"
                 "  chosen by itself when an axis or the frames exceed NIfTI-1's 32767)\n");
    return 2;
  }
  CliProgress progress;
  core::VolumePtr volume;
  if (seriesUid.empty()) {
    volume = core::openPath(positional[0], progress).volume;
  } else {
    const auto opened = core::openPath(positional[0], progress);
    for (const core::DicomSeries* s : opened.scan.allSeries()) {
      if (s->seriesInstanceUid == seriesUid) {
        volume = core::loadDicomSeries(*s, progress);
      }
    }
    if (!volume) {
      std::fprintf(stderr, "delineate-cli convert: no series %s under %s\n", seriesUid.c_str(),
                   positional[0].c_str());
      return 1;
    }
  }
  const std::filesystem::path out = positional[1];
  const std::string ext = out.filename().string();
  const bool niftiOut = ext.size() > 4 && (ext.ends_with(".nii") || ext.ends_with(".nii.gz"));
  if (nifti2 && !niftiOut) {
    std::fprintf(stderr, "delineate-cli convert: --nifti2 needs OUT to end in .nii or .nii.gz\n");
    return 2;
  }
  if (nifti2) {
    core::writeNiftiFile(*volume, out, progress, /*allFrames=*/true, /*nifti2=*/true);
  } else {
    core::writeVolumeFile(*volume, out, true, /*allFrames=*/true);
  }
  const auto& g = volume->geometry();
  const std::string frames =
      volume->info().frames ? "x" + std::to_string(volume->info().frames->count()) : "";
  std::printf("wrote %zux%zux%zu%s %s voxels to %s\n", g.size[0], g.size[1], g.size[2],
              frames.c_str(), std::string(core::toString(volume->scalarType())).c_str(),
              positional[1].c_str());
  return 0;
}

}  // namespace delineate::cli
