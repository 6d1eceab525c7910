#pragma once
// The arrays of delineate-server's nnInteractive routes: an uploaded image's channel 0 as float
// voxels (any numpy dtype, float16 included), a region of a session's 0/1 buffer packed in the
// client's dtype, and the box of what changed between two buffers. Buffers are x fastest over
// the image grid, which is the C order of the client's [a0, a1, a2] = [z, y, x].
#include <cstdint>
#include <string>
#include <vector>

#include "core/ai/PackedArray.h"
#include "core/model/VoxelBox.h"

namespace delineate::server {

// Channel 0 (the first `count` elements) of `a` as float32.
void channelZeroAsFloat(const core::ai::PackedArray& a, std::size_t count, float* out);

// `buffer` (0/1 per voxel of a grid of `size`) over `box`, as a packed array of `dtype` with the
// shape [dz, dy, dx].
std::string packBufferRegion(const std::vector<std::uint8_t>& buffer, const core::Size3& size,
                             const core::VoxelBox& box, core::ai::NpDtype dtype);

// The smallest box holding every voxel where `a` and `b` differ (empty when none).
core::VoxelBox differingBox(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                            const core::Size3& size);

}  // namespace delineate::server
