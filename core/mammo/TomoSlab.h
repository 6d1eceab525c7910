#pragma once
// Thick slabs of a tomosynthesis stack: the frames within a slab's width around the frame shown,
// combined into one frame by their average (a thicker slice, less noise) or their maximum
// (calcifications stand out as in a maximum intensity projection).
#include <cstddef>
#include <utility>

#include "core/model/Volume.h"

namespace delineate::core::mammo {

enum class SlabMode { Off, Average, Maximum };
const char* keyOf(SlabMode mode);  // "off", "average", "maximum"

// The first and last frame (inclusive) of a slab `slabMm` thick centred on frame `centre` of a
// stack of `frames` frames `frameSpacingMm` apart (a spacing <= 0 counts as 1 mm): round(slabMm /
// spacing) frames, at least 1, moved inwards at the ends of the stack so that it keeps its width
// where the stack allows.
std::pair<std::size_t, std::size_t> slabFrames(std::size_t centre, std::size_t frames,
                                               double frameSpacingMm, double slabMm);

// Frames [first, last] of `stack` combined into one frame of the stack's type and in-plane
// geometry: the average (rounded to the nearest value for integer types) or the maximum.
// Throws Error(InvalidInput) when the frames are not in the stack.
VolumePtr slabOf(const Volume& stack, std::size_t first, std::size_t last, SlabMode mode);

}  // namespace delineate::core::mammo
