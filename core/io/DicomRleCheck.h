#pragma once
// DCMTK 3.6.7's RLE decoder trusts the segment offsets of the RLE header: offsets beyond the
// fragment make it read out of bounds (found by DicomLoaderFuzzer). Check them first.
#include <cstddef>
#include <string>

class DcmPixelData;

namespace delineate::core {

// Throws Error(InvalidInput) naming `file` unless frame `frame` of the RLE pixel data is one
// fragment whose header declares `segments` segments inside the fragment. `frames` is the
// object's number of frames.
void checkRleFrame(DcmPixelData& pixels, std::size_t frames, std::size_t frame, unsigned segments,
                   const std::string& file);

}  // namespace delineate::core
