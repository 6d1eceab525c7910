#pragma once
// Fast path for uncompressed NIfTI-1 (.nii): the voxels read straight from the file into the
// voxel buffer in 4 MiB slabs, with progress and Cancel. ITK's reader holds a second copy of the
// voxels while it reads (2x the image at peak); this path holds one.
#include <filesystem>
#include <memory>

#include "core/jobs/ProgressSink.h"
#include "core/model/VoxelBuffer.h"

namespace delineate::core {

// Returns the voxels of a .nii whose header stores `count` voxels of `type` in native byte order
// without intensity scaling; nullptr when ITK's general reader must take it. Throws Error naming
// the file when it is shorter than the header says, CancelledError when cancelled.
std::shared_ptr<VoxelBuffer> readNiftiRawVoxels(const std::filesystem::path& path, ScalarType type,
                                                std::size_t count, ProgressSink& progress);

}  // namespace delineate::core
