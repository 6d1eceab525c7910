#include "core/io/DicomFrameDecoder.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dccodec.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfcache.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcpixel.h>
#include <dcmtk/dcmdata/dcpixseq.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmdata/dcxfer.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>

#include "core/Error.h"
#include "core/io/DicomColour.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomFloatPixels.h"
#include "core/io/DicomJpeg2000.h"
#include "core/io/DicomJpegCheck.h"
#include "core/io/DicomRleCheck.h"

namespace delineate::core {

namespace {

// Loads `h`'s file (pixel values stay on disk until read) and finds its PixelData. DCMTK's
// parse also checks that every element and fragment fits in the file.
DcmPixelData* openPixelData(const DicomFileHeader& h, DcmFileFormat& file) {
  const std::string& path = h.path;
  checkDicom(
      file.loadFile(path.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength, ERM_autoDetect),
      path, "reading the file (truncated or corrupt?)");
  DcmDataset* ds = file.getDataset();
  Uint16 rows = 0, columns = 0;
  ds->findAndGetUint16(DCM_Rows, rows);
  ds->findAndGetUint16(DCM_Columns, columns);
  if (rows != h.rows || columns != h.columns) {
    throw Error(ErrorKind::InvalidInput, path, "the file changed while it was being loaded");
  }
  DcmElement* element = nullptr;
  if (ds->findAndGetElement(DCM_PixelData, element).bad() || element == nullptr) {
    throw Error(ErrorKind::InvalidInput, path, "no PixelData element (truncated file?)");
  }
  auto* pixels = dynamic_cast<DcmPixelData*>(element);
  if (pixels == nullptr) {
    throw Error(ErrorKind::InvalidInput, path, "PixelData element of an unexpected type");
  }
  return pixels;
}

// Sum of the differences between neighbouring samples along each row: small for an image, large
// for one whose bytes are in the wrong order.
template <class T>
double rowVariation(const unsigned char* frame, std::size_t rows, std::size_t columns) {
  double total = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    T previous{};
    std::memcpy(&previous, frame + r * columns * sizeof(T), sizeof(T));
    for (std::size_t c = 1; c < columns; ++c) {
      T v{};
      std::memcpy(&v, frame + (r * columns + c) * sizeof(T), sizeof(T));
      total += std::abs(static_cast<double>(v) - static_cast<double>(previous));
      previous = v;
    }
  }
  return total;
}

void swapHalves(unsigned char* frame, std::size_t samples) {
  for (std::size_t i = 0; i < samples; ++i) {
    unsigned char* p = frame + 4 * i;
    std::swap(p[0], p[2]);
    std::swap(p[1], p[3]);
  }
}

// 32-bit samples in Explicit VR Big Endian: Pixel Data is OW, which DCMTK swaps as 16-bit words
// (and its dcmconv writes so), while pydicom and GDCM write and read each sample as a big-endian
// 32-bit word. DCMTK decoded `frame` the first way; when the second gives the smoother image, the
// file was written the second way and the halves of each sample are exchanged. Returns true then.
bool fixBigEndian32(unsigned char* frame, const DicomFileHeader& h, bool pixelSigned) {
  const std::size_t samples = h.rows * h.columns;
  auto variation = [&] {
    return pixelSigned ? rowVariation<std::int32_t>(frame, h.rows, h.columns)
                       : rowVariation<std::uint32_t>(frame, h.rows, h.columns);
  };
  const double asDecoded = variation();
  swapHalves(frame, samples);
  if (variation() < asDecoded) {
    return true;
  }
  swapHalves(frame, samples);
  return false;
}

// A temporary file removed when this goes away.
struct TemporaryFile {
  std::filesystem::path path;
  ~TemporaryFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
};

// GDCM asserts (ends the process) on attributes it does not expect: more than four samples, a
// Bits Stored of the wrong VR, ... (found by fuzzing). It gets a copy instead, holding only what
// decoding needs, written by DCMTK from the values the loader has checked, and the fragments.
void writeCleanJpeg2000Copy(const DicomFileHeader& h, const DcmPixelSequence& fragments,
                            E_TransferSyntax xfer, const std::filesystem::path& target) {
  static std::atomic<unsigned> counter{0};
  DcmFileFormat copy;
  DcmDataset* ds = copy.getDataset();
  const std::string where = h.path;
  auto put = [&](const DcmTagKey& tag, const std::string& value) {
    checkDicom(ds->putAndInsertString(tag, value.c_str()), where, "copying the image attributes");
  };
  auto put16 = [&](const DcmTagKey& tag, std::size_t value) {
    checkDicom(ds->putAndInsertUint16(tag, static_cast<Uint16>(value)), where,
               "copying the image attributes");
  };
  put(DCM_SOPClassUID, UID_SecondaryCaptureImageStorage);
  put(DCM_SOPInstanceUID, "1.2.826.0.1.3680043.10.3." + std::to_string(::getpid()) + "." +
                              std::to_string(counter.fetch_add(1) + 1));
  put16(DCM_Rows, h.rows);
  put16(DCM_Columns, h.columns);
  put16(DCM_SamplesPerPixel, h.samplesPerPixel);
  // Palette indices decode as grey (the palette is applied afterwards); colour keeps its model.
  const bool threeSamples = h.samplesPerPixel == 3;
  put(DCM_PhotometricInterpretation, threeSamples ? h.photometric : std::string("MONOCHROME2"));
  if (threeSamples) {
    put16(DCM_PlanarConfiguration, h.planarConfiguration);
  }
  put16(DCM_BitsAllocated, h.bitsAllocated);
  put16(DCM_BitsStored, h.bitsStored);
  put16(DCM_HighBit, h.highBit);
  put16(DCM_PixelRepresentation, h.pixelSigned ? 1 : 0);
  if (h.frames > 1) {
    put(DCM_NumberOfFrames, std::to_string(h.frames));
  }
  auto* pixels = new DcmPixelData(DCM_PixelData);
  pixels->putOriginalRepresentation(xfer, nullptr, new DcmPixelSequence(fragments));
  checkDicom(ds->insert(pixels, true), where, "copying the JPEG 2000 fragments");
  checkDicom(copy.saveFile(target.c_str(), xfer), where,
             "writing a copy for the JPEG 2000 decoder in " + target.parent_path().string());
}

}  // namespace

void checkDicomDecodable(const DicomFileHeader& h) {
  if (isNativeSyntax(h.transferSyntaxUid) || isJpeg2000Syntax(h.transferSyntaxUid) ||
      h.transferSyntaxUid == UID_DeflatedExplicitVRLittleEndianTransferSyntax) {
    return;
  }
  const E_TransferSyntax xfer = DcmXfer(h.transferSyntaxUid.c_str()).getXfer();
  if (xfer != EXS_Unknown && DcmXfer(xfer).isEncapsulated() &&
      DcmCodecList::canChangeCoding(xfer, EXS_LittleEndianExplicit)) {
    return;
  }
  throw Error(ErrorKind::Unsupported, h.path,
              "transfer syntax " + h.transferSyntaxName +
                  (h.transferSyntaxName != h.transferSyntaxUid ? " (" + h.transferSyntaxUid + ")"
                                                               : std::string()) +
                  " is not supported (uncompressed, deflated, RLE, JPEG, JPEG-LS and JPEG 2000 "
                  "are)");
}

std::vector<DicomDecodeUnit> makeDicomDecodeUnits(const std::vector<DicomSliceSource>& slices,
                                                  std::size_t fileCount, unsigned threads) {
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> perFile(fileCount);
  for (std::size_t s = 0; s < slices.size(); ++s) {
    perFile[slices[s].file].emplace_back(slices[s].frame, s);
  }
  std::vector<DicomDecodeUnit> units;
  for (std::size_t f = 0; f < fileCount; ++f) {
    auto& frames = perFile[f];
    if (frames.empty()) {
      continue;
    }
    std::sort(frames.begin(), frames.end());
    const std::size_t chunks =
        frames.size() >= 16 ? std::min<std::size_t>(threads * 2, frames.size() / 8) : 1;
    const std::size_t per = (frames.size() + chunks - 1) / std::max<std::size_t>(chunks, 1);
    for (std::size_t b = 0; b < frames.size(); b += per) {
      DicomDecodeUnit u;
      u.file = f;
      u.frames.assign(
          frames.begin() + static_cast<std::ptrdiff_t>(b),
          frames.begin() + static_cast<std::ptrdiff_t>(std::min(b + per, frames.size())));
      units.push_back(std::move(u));
    }
  }
  return units;
}

DicomFrameDecoder::DicomFrameDecoder(const std::vector<DicomFileHeader>& headers,
                                     const DicomSampleFormat& format, const DicomPixelPlan& plan,
                                     const std::vector<Rescale>& rescales, std::size_t sliceVoxels,
                                     VoxelBuffer& buffer)
    : headers_(headers),
      format_(format),
      plan_(plan),
      rescales_(rescales),
      sliceVoxels_(sliceVoxels),
      slotBytes_(sliceVoxels * scalarSize(plan.slotType)),
      base_(static_cast<unsigned char*>(buffer.data())),
      ranges_(rescales.size()) {}

void DicomFrameDecoder::setColourTarget(VoxelBuffer& rgb) {
  rgbBase_ = static_cast<unsigned char*>(rgb.data());
}

void DicomFrameDecoder::decode(const DicomDecodeUnit& unit, ProgressSink& progress) {
  const DicomFileHeader& h = headers_[unit.file];
  if (h.floatPixelBits != 0) {
    readDicomFloatFrames(h, unit.frames, base_, slotBytes_, progress);
  } else if (isJpeg2000Syntax(h.transferSyntaxUid)) {
    decodeJpeg2000(unit, progress);
  } else {
    decodeWithDcmtk(unit, progress);
  }
}

void DicomFrameDecoder::warn(std::string message) {
  std::lock_guard lock(warningsMutex_);
  if (std::find(warnings_.begin(), warnings_.end(), message) == warnings_.end()) {
    warnings_.push_back(std::move(message));
  }
}

void DicomFrameDecoder::store(const void* samples, std::size_t slice) {
  ranges_[slice] = convertDicomSlice(samples, base_ + slice * slotBytes_, sliceVoxels_, format_,
                                     plan_, rescales_[slice]);
}

void DicomFrameDecoder::storeColour(const unsigned char* frame, std::size_t slice,
                                    const DicomFileHeader& h, const std::string& decodedPhotometric,
                                    bool native) {
  const DicomColourFrame layout = dicomColourFrame(h, decodedPhotometric, native);
  const std::size_t rgbBytes = 3 * sliceVoxels_ * scalarSize(layout.channelType);
  convertDicomColourFrame(frame, layout, rgbBase_ + slice * rgbBytes, base_ + slice * slotBytes_);
}

void DicomFrameDecoder::decodeWithDcmtk(const DicomDecodeUnit& unit, ProgressSink& progress) {
  const DicomFileHeader& h = headers_[unit.file];
  const std::string& path = h.path;
  DcmFileFormat file;
  DcmPixelData* pixels = openPixelData(h, file);
  DcmDataset* ds = file.getDataset();
  const std::size_t frameBytes = h.frameBytes();
  Uint32 dcmFrameBytes = 0;
  checkDicom(pixels->getUncompressedFrameSize(ds, dcmFrameBytes), path, "computing the frame size");
  const bool colour = rgbBase_ != nullptr;
  if ((dcmFrameBytes != frameBytes && !colour) ||
      frameBytes >= std::numeric_limits<Uint32>::max()) {
    throw Error(ErrorKind::InvalidInput, path, "inconsistent frame size");
  }
  const bool native = isNativeSyntax(h.transferSyntaxUid) ||
                      h.transferSyntaxUid == UID_DeflatedExplicitVRLittleEndianTransferSyntax;
  if (native) {
    const double needed = static_cast<double>(frameBytes) * static_cast<double>(h.frames);
    if (static_cast<double>(pixels->getLengthField()) < needed) {
      throw Error(ErrorKind::InvalidInput, path,
                  "PixelData holds " + std::to_string(pixels->getLengthField()) + " bytes but " +
                      std::to_string(h.frames) + " frame(s) of " + std::to_string(h.columns) + "x" +
                      std::to_string(h.rows) + " need " +
                      std::to_string(static_cast<std::uint64_t>(needed)));
    }
  }
  // Decode into the slot when it has room for the frame and DCMTK's pad byte; else through a
  // small scratch buffer (8-bit frames of odd size, 32-bit samples kept as Int16).
  // Colour frames go through the scratch buffer (they become RGB and luminance), sized for
  // whichever of the header's and DCMTK's frame size is larger (a codec restores 4:2:2 chroma).
  const std::size_t decodedBytes =
      colour && !native ? std::max<std::size_t>(frameBytes, dcmFrameBytes) : frameBytes;
  // 4:2:2 stored as is: DCMTK counts three full samples a frame, so its frame offsets are wrong;
  // the frame is read at our own offset instead.
  const bool subsampledNative = colour && native && frameBytes != dcmFrameBytes;
  const std::size_t padded = decodedBytes + (decodedBytes & 1u);
  const bool rle = h.transferSyntaxUid == UID_RLELosslessTransferSyntax;
  const bool bigEndian32 =
      h.transferSyntaxUid == UID_BigEndianExplicitTransferSyntax && format_.bitsAllocated == 32;
  std::optional<bool> wordsOf32Bits;  // decided on the unit's first frame
  const bool jpeg = isDcmjpegTransferSyntax(h.transferSyntaxUid);
  std::vector<unsigned char> scratch;
  DcmFileCache cache;
  Uint32 startFragment = 0;
  std::size_t expectedFrame = 0;
  for (const auto& [frame, slice] : unit.frames) {
    progress.throwIfCancelled();
    if (frame != expectedFrame) {
      startFragment = 0;  // skipped a frame: let DCMTK find the fragment
    }
    unsigned char* slot = base_ + slice * slotBytes_;
    unsigned char* target = slot;
    if (slotBytes_ < padded || colour) {
      scratch.resize(padded);
      target = scratch.data();
    }
    if (rle) {
      checkRleFrame(*pixels, h.frames, frame, format_.bitsAllocated / 8 * h.samplesPerPixel, path);
    }
    if (jpeg) {
      checkJpegFrame(*pixels, h.transferSyntaxUid, h.frames, frame, path);
    }
    OFString colourModel;
    if (subsampledNative) {
      checkDicom(pixels->getPartialValue(target, static_cast<Uint32>(frame * frameBytes),
                                         static_cast<Uint32>(frameBytes), &cache),
                 path, "reading frame " + std::to_string(frame + 1));
    } else {
      checkDicom(pixels->getUncompressedFrame(ds, static_cast<Uint32>(frame), startFragment, target,
                                              static_cast<Uint32>(padded), colourModel, &cache),
                 path, "decoding frame " + std::to_string(frame + 1));
    }
    if (bigEndian32 && !colour) {
      if (!wordsOf32Bits) {
        wordsOf32Bits = fixBigEndian32(target, h, format_.pixelSigned);
        if (*wordsOf32Bits) {
          warn(path +
               ": 32-bit big-endian Pixel Data read as 32-bit words (as pydicom and GDCM "
               "write it), not as 16-bit words (as DCMTK does): the image is smooth so");
        }
      } else if (*wordsOf32Bits) {
        swapHalves(target, h.rows * h.columns);
      }
    }
    if (colour) {
      storeColour(target, slice, h, colourModel.c_str(), native);
    } else {
      store(target, slice);
    }
    expectedFrame = frame + 1;
  }
}

void DicomFrameDecoder::decodeJpeg2000(const DicomDecodeUnit& unit, ProgressSink& progress) {
  const DicomFileHeader& h = headers_[unit.file];
  static std::atomic<unsigned> copies{0};
  TemporaryFile clean{std::filesystem::temp_directory_path() /
                      ("delineate-j2k-" + std::to_string(::getpid()) + "-" +
                       std::to_string(copies.fetch_add(1)) + ".dcm")};
  {
    // GDCM trusts fragment lengths (a corrupt one makes it allocate gigabytes): DCMTK's stricter
    // parse vets the file first, and GDCM reads a clean copy of what it needs.
    DcmFileFormat file;
    DcmPixelData* pixels = openPixelData(h, file);
    DcmPixelSequence* fragments = nullptr;
    const E_TransferSyntax xfer = DcmXfer(h.transferSyntaxUid.c_str()).getXfer();
    checkDicom(pixels->getEncapsulatedRepresentation(xfer, nullptr, fragments), h.path,
               "finding the JPEG 2000 fragments");
    if (fragments == nullptr || fragments->card() < 2) {
      throw Error(ErrorKind::InvalidInput, h.path, "JPEG 2000 pixel data without fragments");
    }
    writeCleanJpeg2000Copy(h, *fragments, xfer, clean.path);
  }
  const bool colour = rgbBase_ != nullptr;
  Jpeg2000Frames frames = [&] {
    try {
      return readJpeg2000Frames(clean.path.string(), h.rows, h.columns, h.frames, format_,
                                h.samplesPerPixel);
    } catch (const Error& e) {
      throw Error(e.kind(), h.path, e.detail());  // name the user's file, not the copy
    }
  }();
  for (const auto& [frame, slice] : unit.frames) {
    progress.throwIfCancelled();
    if (colour) {
      // GDCM delivers RGB: it undoes YBR_ICT / YBR_RCT and converts YBR_FULL.
      storeColour(static_cast<const unsigned char*>(frames.frame(frame)), slice, h,
                  h.samplesPerPixel == 3 ? "RGB" : "", false);
    } else {
      store(frames.frame(frame), slice);
    }
  }
}

}  // namespace delineate::core
