#pragma once
// When a NIfTI-1 file's voxels can be taken as they are stored: the header check shared by the
// fast readers of .nii.gz (NiftiGzReader) and .nii (NiftiRawReader). Internal to core/io.
#include <cstddef>
#include <optional>

#include "core/model/ScalarType.h"

namespace delineate::core {

constexpr std::size_t kNifti1HeaderBytes = 348;

// The voxel offset of a NIfTI-1 header (the first 348 bytes of the file, as stored) whose voxels
// are `type` in this machine's byte order without intensity scaling; nullopt when the file needs
// ITK's general reader (NIfTI-2, the other byte order, a type ITK converts, scl_slope/scl_inter).
std::optional<std::size_t> niftiFastPathOffset(const unsigned char* header, ScalarType type);

}  // namespace delineate::core
