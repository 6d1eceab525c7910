#pragma once
// Atomic replacement of a file: write a temporary beside it, fsync, rename over, fsync the folder.
// The previous file stays intact when anything fails before the rename.
#include <filesystem>
#include <string_view>

namespace delineate::core {

// A temporary path in the same folder as `target` that keeps target's full extension (".nii.gz"),
// so that writers choosing a format by extension choose the same one.
std::filesystem::path temporarySiblingPath(const std::filesystem::path& target);

// fsyncs `temporary`, renames it to `target`, fsyncs the folder. Throws Error(Io) naming target.
// Removes `temporary` on failure.
void commitAtomically(const std::filesystem::path& temporary, const std::filesystem::path& target);

// Writes `text` to `target` atomically (temporary, fsync, rename). Throws Error(Io) naming target
// and saying "cannot write <what>"; the previous file stays intact.
void writeTextAtomically(const std::filesystem::path& target, std::string_view text,
                         const std::string& what);

}  // namespace delineate::core
