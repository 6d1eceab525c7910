#pragma once
// NIfTI files carry no patient header, but their free-text fields (descrip, aux_file,
// intent_name, the old Analyze data_type and db_name) and header extensions (often a whole DICOM
// header from the converter) can. The copy written here has them blanked; voxels and geometry
// are unchanged.
#include <filesystem>

namespace delineate::core::deid {

// True for names ending in .nii or .nii.gz.
bool isNiftiPath(const std::filesystem::path& path);

// Copies the NIfTI-1 or NIfTI-2 file `input` (.nii or .nii.gz, either byte order) to `output`
// with the fields above cleared and any extensions zeroed (the voxel offset is kept, so readers
// find the voxels where they were); `output` is compressed when its name ends in .gz, and a gzip
// header written here names no file. Written atomically. Throws Error naming `input` when it is
// not a single-file NIfTI image or is truncated, or naming `output` when it cannot be written.
void writeDeidentifiedNifti(const std::filesystem::path& input,
                            const std::filesystem::path& output);

}  // namespace delineate::core::deid
