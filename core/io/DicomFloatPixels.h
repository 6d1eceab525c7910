#pragma once
// Float Pixel Data (7FE0,0008, VR OF) and Double Float Pixel Data (7FE0,0009, VR OD): the
// floating-point images of Parametric Maps (ADC, T1, perfusion maps) and of some research
// writers. Stored uncompressed, no rescale; NaN marks voxels without a value and stays NaN.
#include <cstddef>
#include <utility>
#include <vector>

#include "core/io/DicomHeader.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::core {

// Copies the listed (frame, slice) pairs of `header`'s file into their slots (`base` +
// slice * slotBytes), each rows x columns floats of header.floatPixelBits bits in native order.
// Throws Error naming the file when the element is missing, too short or not floating point.
void readDicomFloatFrames(const DicomFileHeader& header,
                          const std::vector<std::pair<std::size_t, std::size_t>>& frames,
                          unsigned char* base, std::size_t slotBytes, ProgressSink& progress);

}  // namespace delineate::core
