#pragma once
// The sample's 4-D series: a dynamic contrast-enhanced (DCE) breast MR, one DICOM file per slice
// and time point, the time points told apart by Temporal Position Identifier and Acquisition
// Time. A lesion enhances fast and washes out (the curve a DCE reader looks for), the gland
// enhances slowly, a vessel peaks first. What a newcomer plays with the frame bar and plots.
#include <cstdint>
#include <filesystem>

namespace delineate::core::sample {

constexpr int kDceTimePoints = 8;
constexpr double kDceSecondsPerTimePoint = 60;

// Writes the series into `folder` (created). The same seed gives the same voxels and UIDs.
void writeDceMrSeries(const std::filesystem::path& folder, std::uint64_t seed);

}  // namespace delineate::core::sample
