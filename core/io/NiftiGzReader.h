#pragma once
// Fast path for gzip-compressed NIfTI-1: ISA-L's streaming inflater straight into the voxel buffer
// (about twice as fast as zlib, as fast as one-shot libdeflate, without holding the compressed
// file in memory). ITK still reads the header and handles every case this path declines.
#include <filesystem>
#include <memory>

#include "core/jobs/ProgressSink.h"
#include "core/model/VoxelBuffer.h"

namespace delineate::core {

// Returns the voxels of a .nii.gz whose header stores `count` voxels of `type` in native byte
// order without intensity scaling; nullptr when the file needs ITK's general reader instead.
// Throws Error naming the file when the data is truncated or corrupt.
std::shared_ptr<VoxelBuffer> readNiftiGzVoxels(const std::filesystem::path& path, ScalarType type,
                                               std::size_t count, ProgressSink& progress);

}  // namespace delineate::core
