#pragma once
// DCMTK 3.6.7's JPEG decoder first scans each frame's markers for the bit depth and trusts their
// lengths: a corrupt marker sequence sends it reading past the fragment, and can loop for ever
// (found by DicomLoaderFuzzer). Walk the markers ourselves, bounded by the fragment, first.
#include <cstddef>
#include <string>

class DcmPixelData;

namespace delineate::core {

// True for the transfer syntaxes DCMTK's dcmjpeg (baseline, extended, lossless) decodes.
bool isDcmjpegTransferSyntax(const std::string& uid);

// Throws Error(InvalidInput) naming `file` unless the fragment holding frame `frame` starts with
// a JPEG SOI and reaches a start-of-frame marker through well-formed segments inside the fragment.
void checkJpegFrame(DcmPixelData& pixels, const std::string& transferSyntaxUid, std::size_t frames,
                    std::size_t frame, const std::string& file);

// The marker walk itself, on a buffer (exposed for tests). Empty when fine, else the problem.
std::string jpegMarkerProblem(const unsigned char* data, std::size_t length);

}  // namespace delineate::core
