#pragma once
// Checks a NIfTI header before ITK sees it. ITK 5.2's NiftiImageIO aborts the whole process
// (vnl assert_finite) when the qform/sform or pixdim hold NaN or infinity (found by
// NiftiLoaderFuzzer); such a file must end in an Error instead.
#include <cstddef>
#include <filesystem>
#include <string>

#include "core/model/FrameSeries.h"

namespace delineate::core {

// For .nii / .nii.gz names (NIfTI-1 and NIfTI-2 headers, either byte order): throws
// Error(InvalidInput) naming the file when a geometry field is not finite. Other names and
// headers it cannot recognise pass unchanged (ITK then decides).
void checkNiftiHeader(const std::filesystem::path& path);

// The unit of the NIfTI header's time axis (xyzt_units): "s", "ms" or "us"; empty when the file
// is no NIfTI or names no time unit.
std::string niftiTimeUnit(const std::filesystem::path& path);

// The fourth axis of a NIfTI image of `frames` frames: time in seconds from pixdim[4] (`step`) in
// `unit` (niftiTimeUnit); numbered frames when the unit or the step is missing.
FrameAxis niftiFrameAxis(std::size_t frames, double step, const std::string& unit);

}  // namespace delineate::core
