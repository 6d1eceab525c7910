#pragma once
// Turns decoded DICOM samples into the volume's voxel type in place: masks and sign-extends
// BitsStored inside BitsAllocated, applies RescaleSlope/Intercept, and picks the voxel type
// (Int16 when the rescaled values fit, else Float32; UInt8/UInt16 kept when no rescale needs more).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/model/ScalarType.h"
#include "core/model/VoxelBuffer.h"

namespace delineate::core {

struct DicomSampleFormat {
  unsigned bitsAllocated = 16;  // 8, 16 or 32
  unsigned bitsStored = 16;
  unsigned highBit = 15;
  bool pixelSigned = false;

  ScalarType storedType() const;  // the integer type of BitsAllocated and PixelRepresentation
  std::size_t storedBytes() const { return bitsAllocated / 8; }
  // Theoretical stored range from BitsStored and PixelRepresentation.
  std::pair<std::int64_t, std::int64_t> storedRange() const;
};

// Throws Error(Unsupported / InvalidInput) naming `file` when the format cannot be decoded.
void validateSampleFormat(const DicomSampleFormat& format, const std::string& file);

struct Rescale {
  double slope = 1;
  double intercept = 0;
  bool identity() const { return slope == 1 && intercept == 0; }
};

struct DicomPixelPlan {
  ScalarType slotType = ScalarType::Int16;  // what the buffer holds while slices are decoded
  // When true, slices hold normalised stored values (slotType = storedType()) and
  // finalizeDicomPixels() picks the voxel type from the actual value range afterwards.
  bool deferred = false;
};

// Chooses the voxel type from the sample format and every slice's rescale.
DicomPixelPlan planDicomPixels(const DicomSampleFormat& format, const std::vector<Rescale>& slices);

// Converts `count` raw samples at `src` (native byte order, storedType() layout) into the slot
// type at `dst`; src and dst may be the same memory. Returns the min and max stored value for
// deferred plans (which need them), {0, 0} otherwise.
std::pair<std::int64_t, std::int64_t> convertDicomSlice(const void* src, void* dst,
                                                        std::size_t count,
                                                        const DicomSampleFormat& format,
                                                        const DicomPixelPlan& plan,
                                                        const Rescale& rescale);

// For deferred plans, converts the buffer to its final type (in place when the size allows,
// else into a new buffer) given each slice's stored min/max; returns the buffer to keep.
std::shared_ptr<VoxelBuffer> finalizeDicomPixels(
    std::shared_ptr<VoxelBuffer> buffer, const DicomSampleFormat& format,
    const DicomPixelPlan& plan, const std::vector<Rescale>& slices,
    const std::vector<std::pair<std::int64_t, std::int64_t>>& storedRanges,
    std::size_t sliceVoxels);

}  // namespace delineate::core
