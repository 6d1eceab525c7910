#pragma once
// Research image files through ITK: NIfTI (.nii, .nii.gz), NRRD (.nrrd, .nhdr), MetaImage
// (.mha, .mhd). Voxels are read straight into the Volume's buffer (one copy in memory).
#include <filesystem>
#include <string>

#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::core {

// True when the path's extension is one of the formats above.
bool isVolumeFile(const std::filesystem::path& path);

// Reads a scalar 2-D, 3-D or 4-D image; of a 4-D image (NIfTI's fourth axis: time, or frames of
// NRRD and MetaImage), the first frame, whose info().frames holds them all. Throws Error naming
// the file on any problem: unknown format, truncated data, a header whose sizes overflow or
// exceed what the file could hold.
VolumePtr readVolumeFile(const std::filesystem::path& path, ProgressSink& progress);

// Writes any Volume; format from the extension; compressed when the extension says .gz or for
// .nrrd/.mha when `compress` is set. Atomic: a temporary file renamed over the target.
// allFrames: a frame of a 4-D image writes its whole series (NIfTI only; Error for others).
void writeVolumeFile(const Volume& volume, const std::filesystem::path& path, bool compress = true,
                     bool allFrames = false);

}  // namespace delineate::core
