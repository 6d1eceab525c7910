#pragma once
// Reads a mammography study for the reading view: finds every DX/MG image under the given
// folders (or files) with its hanging facts, then loads the images a layout needs, each first as
// a coarse preview (shown at once) and then with its full pyramid. Images load two at a time;
// a file that cannot be read does not stop the others, it is reported by name.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/mammo/HangingProtocol.h"
#include "core/mammo/ImagePyramid.h"
#include "core/mammo/MammoView.h"

namespace delineate::core::mammo {

struct MammoStudyFiles {
  std::vector<MammoView> views;         // id = the file
  std::vector<std::string> problems;    // files that are not readable DICOM, named
  std::vector<std::string> cadReports;  // Mammography CAD SR files found with the images
};

MammoStudyFiles scanMammoFiles(const std::vector<std::filesystem::path>& paths,
                               ProgressSink& progress);

struct LoadedMammoImage {
  std::size_t index = 0;  // into MammoStudyFiles::views
  PyramidPtr pyramid;     // preview or full (pyramid->complete())
  ChestWall storedWall = ChestWall::Left;
  bool monochrome1 = false;
};

// Calls `ready` (on a loading thread, so it must only hand the value on) with the preview and
// then the full pyramid of each image of `indices` (of its middle frame for a tomosynthesis
// stack). Returns the problems ("<file>: <what>").
// Throws CancelledError when cancelled.
std::vector<std::string> loadMammoImages(const MammoStudyFiles& files,
                                         const std::vector<std::size_t>& indices,
                                         ProgressSink& progress,
                                         const std::function<void(const LoadedMammoImage&)>& ready);

// One DX/MG file as a Volume (frames of a tomosynthesis object as its slices).
VolumePtr loadMammoFile(const std::string& file, ProgressSink& progress);

}  // namespace delineate::core::mammo
