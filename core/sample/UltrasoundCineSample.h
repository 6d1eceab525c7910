#pragma once
// The sample's colour ultrasound cine: one multi-frame US image (RGB, 25 frames a second) of a
// pulsating vessel in a sector of B-mode speckle, with a colour Doppler box whose red and blue
// follow the wall's motion. What a newcomer sees of colour images and cine loops.
#include <cstdint>
#include <filesystem>

namespace delineate::core::sample {

constexpr int kCineFrames = 20;
constexpr double kCineFrameTimeMs = 40;

// Writes the loop as `file` (Explicit VR Little Endian, US Multi-frame Image Storage). The same
// seed gives the same pixels and UIDs. Throws Error naming the file when it cannot be written.
void writeUltrasoundCine(const std::filesystem::path& file, std::uint64_t seed);

}  // namespace delineate::core::sample
