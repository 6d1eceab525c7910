#include "core/io/DicomRleCheck.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcpixel.h>
#include <dcmtk/dcmdata/dcpixseq.h>
#include <dcmtk/dcmdata/dcpxitem.h>
#include <dcmtk/dcmdata/dcxfer.h>

#include <cstdint>

#include "core/Error.h"
#include "core/io/DicomCondition.h"

namespace delineate::core {

namespace {

std::uint32_t littleEndian32(const Uint8* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

}  // namespace

void checkRleFrame(DcmPixelData& pixels, std::size_t frames, std::size_t frame, unsigned segments,
                   const std::string& file) {
  const std::string where = "RLE frame " + std::to_string(frame + 1);
  DcmPixelSequence* sequence = nullptr;
  checkDicom(pixels.getEncapsulatedRepresentation(EXS_RLELossless, nullptr, sequence), file,
             "reading the RLE fragments");
  if (sequence == nullptr || sequence->card() != frames + 1) {
    throw Error(ErrorKind::InvalidInput, file,
                "RLE pixel data must hold one fragment per frame (" + std::to_string(frames) +
                    " frames, " + std::to_string(sequence ? sequence->card() : 0) +
                    " items with the offset table)");
  }
  DcmPixelItem* item = nullptr;
  checkDicom(sequence->getItem(item, static_cast<unsigned long>(frame + 1)), file, where);
  Uint8* data = nullptr;
  checkDicom(item->getUint8Array(data), file, where);
  const std::uint32_t length = item->getLength();
  if (data == nullptr || length < 64) {
    throw Error(ErrorKind::InvalidInput, file, where + ": fragment shorter than the RLE header");
  }
  const std::uint32_t count = littleEndian32(data);
  if (count != segments) {
    throw Error(ErrorKind::InvalidInput, file,
                where + ": header declares " + std::to_string(count) + " segments, expected " +
                    std::to_string(segments));
  }
  std::uint32_t previous = 64;
  for (std::uint32_t s = 0; s < count; ++s) {
    const std::uint32_t offset = littleEndian32(data + 4 + 4 * s);
    if (offset < previous || offset > length) {
      throw Error(ErrorKind::InvalidInput, file,
                  where + ": segment " + std::to_string(s + 1) + " offset " +
                      std::to_string(offset) + " lies outside the " + std::to_string(length) +
                      "-byte fragment");
    }
    previous = offset;
  }
}

}  // namespace delineate::core
