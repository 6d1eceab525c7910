#pragma once
// Decodes the frames of DICOM files straight into their slots of the volume's voxel buffer:
// DCMTK for native, deflated, RLE, JPEG and JPEG-LS pixel data, GDCM (through ITK) for JPEG 2000.
// One decoder serves several threads as long as each works on its own units.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/io/DicomHeader.h"
#include "core/io/DicomPixelConversion.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/VoxelBuffer.h"

namespace delineate::core {

// Where a slice of the volume comes from.
struct DicomSliceSource {
  std::size_t file = 0;   // index into the headers
  std::size_t frame = 0;  // frame within that file
};

// The frames of one file that one thread decodes, in frame order.
struct DicomDecodeUnit {
  std::size_t file = 0;
  std::vector<std::pair<std::size_t, std::size_t>> frames;  // (frame, slice)
};

// Throws Error(Unsupported) naming the file and its transfer syntax when no codec can decode it.
void checkDicomDecodable(const DicomFileHeader& header);

// Groups the slices into per-file units; large multi-frame files are cut into several units so
// that threads can share them (each unit opens the file on its own).
std::vector<DicomDecodeUnit> makeDicomDecodeUnits(const std::vector<DicomSliceSource>& slices,
                                                  std::size_t fileCount, unsigned threads);

class DicomFrameDecoder {
 public:
  // `buffer` holds one slot of `sliceVoxels` voxels of plan.slotType per slice.
  DicomFrameDecoder(const std::vector<DicomFileHeader>& headers, const DicomSampleFormat& format,
                    const DicomPixelPlan& plan, const std::vector<Rescale>& rescales,
                    std::size_t sliceVoxels, VoxelBuffer& buffer);

  // Colour images: `buffer` receives each slice's luminance (plan.slotType is the channel type)
  // and `rgb` its R, G, B (3 x sliceVoxels per slice, same type). Call before decoding.
  void setColourTarget(VoxelBuffer& rgb);

  // Decodes the unit's frames into their slots. Throws Error naming the file. Thread-safe for
  // distinct units.
  void decode(const DicomDecodeUnit& unit, ProgressSink& progress);

  // Stored-value range of each slice, valid once every slice was decoded.
  const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges() const { return ranges_; }
  // What the decoding noticed and the reader should see (each names its file); valid once every
  // unit was decoded.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  void store(const void* samples, std::size_t slice);
  // `decodedPhotometric`: the colour model the codec delivered (empty: the header's).
  void storeColour(const unsigned char* frame, std::size_t slice, const DicomFileHeader& h,
                   const std::string& decodedPhotometric, bool native);
  void decodeWithDcmtk(const DicomDecodeUnit& unit, ProgressSink& progress);
  void decodeJpeg2000(const DicomDecodeUnit& unit, ProgressSink& progress);
  void warn(std::string message);

  const std::vector<DicomFileHeader>& headers_;
  DicomSampleFormat format_;
  DicomPixelPlan plan_;
  const std::vector<Rescale>& rescales_;
  std::size_t sliceVoxels_;
  std::size_t slotBytes_;
  unsigned char* base_;
  unsigned char* rgbBase_ = nullptr;  // colour images only
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges_;
  std::mutex warningsMutex_;
  std::vector<std::string> warnings_;
};

}  // namespace delineate::core
