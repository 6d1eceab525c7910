#pragma once
// NIfTI-2 (540-byte header, 64-bit sizes), read by the project itself: ITK 5.2 reads only
// NIfTI-1. .nii or .nii.gz, either byte order, 8-64 bit integer and float voxels, scl_slope and
// scl_inter applied (to float), a fourth axis as frames (core/model/FrameSeries.h). The grid as
// ITK reads a NIfTI-1 header: the sform when its code is set and its axes are orthogonal, else
// the qform, else pixdim alone; RAS turned into LPS.
#include <filesystem>

#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::core {

// True when the file's first bytes are a NIfTI-2 header (either byte order, gzip or not).
bool isNifti2File(const std::filesystem::path& path);

// Throws Error naming the file when it is no NIfTI-2 file, is truncated, or holds what this
// reader does not read (colour, complex, five or more dimensions).
VolumePtr readNifti2File(const std::filesystem::path& path, ProgressSink& progress);

}  // namespace delineate::core
