#pragma once
// Whether an image file just written holds all of its data. ITK's writers do not all report a
// write the file system cut short (a full disk, a file size limit): gzipped NIfTI goes through
// znzlib, which ignores gzwrite's errors and leaves a truncated file that looks written. Checked
// before the file replaces anything, so a full disk never turns a good file into a broken one.
#include <cstddef>
#include <filesystem>

namespace delineate::core {

// `written`: the file; `voxelBytes`: the size of the voxel data it must hold; `reported`: the
// path to name in the error. Throws Error(Io) when the file is short or its compressed stream
// is cut.
void checkWrittenVolume(const std::filesystem::path& written, std::size_t voxelBytes,
                        const std::filesystem::path& reported);

}  // namespace delineate::core
