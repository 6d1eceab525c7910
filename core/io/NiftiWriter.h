#pragma once
// NIfTI-1 written by the project itself: .nii, or .nii.gz deflated by ISA-L at its level 1 (label
// maps and images compress about as well as with zlib's default level, several times faster). In
// slabs, with progress and Cancel; every write checked, so a full disk is an Error naming the
// file; atomically (a temporary sibling renamed over the target), so the previous file stays on
// any failure. The header states the grid as both qform and sform (scanner-anatomical), as ITK
// writes it, so that ITK, 3D Slicer, ITK-SNAP and nibabel read the same grid.
#include <filesystem>

#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::core {

// `path` ends in .nii or .nii.gz. Throws Error naming `path`, CancelledError when cancelled.
// With allFrames, a frame of a 4-D image writes every frame of its series (dim[4], and a time
// axis as pixdim[4] in seconds); otherwise only the volume itself. NIfTI-1, or NIfTI-2 (540-byte
// header, 64-bit sizes and doubles) when `nifti2` asks or an axis or the frames exceed 32767.
void writeNiftiFile(const Volume& volume, const std::filesystem::path& path, ProgressSink& progress,
                    bool allFrames = false, bool nifti2 = false);

}  // namespace delineate::core
