#pragma once
// Small colour DICOM seeds for the DICOM loader harness: RGB (interleaved and planar, 8 and 16
// bits), YBR_FULL, YBR_FULL_422 as stored, a multi-frame ultrasound cine and PALETTE COLOR with
// plain and segmented tables. Written with DCMTK; throws delineate::core::Error on failure.
#include <filesystem>

namespace delineate::fuzz {

void writeColourSeeds(const std::filesystem::path& folder);

}  // namespace delineate::fuzz
