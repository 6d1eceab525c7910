#pragma once
// Colour DICOM images (PS3.3 C.7.6.3.1.2): RGB, YBR_FULL, YBR_FULL_422, YBR_PARTIAL_422/420,
// YBR_ICT/YBR_RCT (JPEG 2000, which the codec turns back to RGB) and PALETTE COLOR. A decoded
// frame becomes interleaved R, G, B samples (what the views show) and its luminance (what the
// tools, the statistics and the value readout work on).
#include <cstddef>
#include <string>

#include "core/io/DicomHeader.h"
#include "core/io/DicomPalette.h"
#include "core/model/ScalarType.h"

namespace delineate::core {

enum class DicomColourModel {
  Monochrome,
  Rgb,
  YbrFull,
  YbrFull422,
  YbrPartial,  // YBR_PARTIAL_422 and YBR_PARTIAL_420 (compressed: the codec restores full size)
  Palette,
  Unknown,
};

DicomColourModel dicomColourModel(const std::string& photometric);

// True when the file holds a colour image: three samples per pixel, or PALETTE COLOR.
bool isDicomColour(const DicomFileHeader& header);

// Throws Error(Unsupported / InvalidInput) naming the file when its colour image cannot be shown:
// an unknown photometric interpretation, a sample count that does not fit it, signed colour
// samples, a palette that is missing.
void checkDicomColour(const DicomFileHeader& header);

// The unsigned type of one displayed channel: UInt8, UInt16 or UInt32 (the samples' size, or
// the palette's entry size).
ScalarType dicomColourChannelType(const DicomFileHeader& header);

// One decoded frame: its layout as the decoder delivered it.
struct DicomColourFrame {
  DicomColourModel model = DicomColourModel::Rgb;
  bool planar = false;      // R..R G..G B..B instead of RGB RGB ...
  bool subsampled = false;  // 4:2:2 as stored uncompressed: Y1 Y2 Cb Cr per pair of pixels
  unsigned bitsAllocated = 8;
  unsigned bitsStored = 8;
  bool pixelSigned = false;  // palette indices only; colour samples are unsigned
  std::size_t rows = 0;
  std::size_t columns = 0;
  const DicomPalette* palette = nullptr;  // PALETTE COLOR
  ScalarType channelType = ScalarType::UInt8;
};

// The decoded frame's layout for `header`, given the colour model the codec reports after
// decompression (`decodedPhotometric`, empty: the header's) and whether the data was stored
// uncompressed.
DicomColourFrame dicomColourFrame(const DicomFileHeader& header,
                                  const std::string& decodedPhotometric, bool native);

// Bytes of one decoded frame in that layout.
std::size_t dicomColourFrameBytes(const DicomColourFrame& frame);

// Converts `frame` (native byte order) into `rgb` (3 channels per pixel, channelType) and
// `luminance` (one per pixel, channelType: round(0.299 R + 0.587 G + 0.114 B)).
void convertDicomColourFrame(const unsigned char* frame, const DicomColourFrame& layout, void* rgb,
                             void* luminance);

}  // namespace delineate::core
