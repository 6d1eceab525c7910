#include "core/io/DicomJpegCheck.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcpixel.h>
#include <dcmtk/dcmdata/dcpixseq.h>
#include <dcmtk/dcmdata/dcpxitem.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmdata/dcxfer.h>

#include "core/Error.h"
#include "core/io/DicomCondition.h"

namespace delineate::core {

bool isDcmjpegTransferSyntax(const std::string& uid) {
  return uid == UID_JPEGProcess1TransferSyntax || uid == UID_JPEGProcess2_4TransferSyntax ||
         uid == UID_JPEGProcess14TransferSyntax || uid == UID_JPEGProcess14SV1TransferSyntax;
}

std::string jpegMarkerProblem(const unsigned char* d, std::size_t n) {
  if (d == nullptr || n < 4 || d[0] != 0xFF || d[1] != 0xD8) {
    return "fragment does not start with a JPEG SOI marker";
  }
  std::size_t off = 2;
  while (off + 1 < n) {
    if (d[off] != 0xFF) {
      return "expected a JPEG marker at byte " + std::to_string(off);
    }
    while (off + 1 < n && d[off + 1] == 0xFF) {
      ++off;  // fill bytes
    }
    if (off + 1 >= n) {
      break;
    }
    const unsigned marker = d[off + 1];
    const bool sof =
        marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (sof) {
      return off + 8 < n ? std::string() : "truncated JPEG frame header";
    }
    if (marker == 0xDA || marker == 0xD9) {
      return "JPEG data reaches its scan before any frame header";
    }
    if ((marker >= 0xD0 && marker <= 0xD8) || marker == 0x01) {
      off += 2;
      continue;
    }
    if (off + 3 >= n) {
      break;
    }
    const std::size_t length = (std::size_t(d[off + 2]) << 8) | d[off + 3];
    if (length < 2 || off + 2 + length > n) {
      return "JPEG segment at byte " + std::to_string(off) + " has a bad length " +
             std::to_string(length);
    }
    off += 2 + length;
  }
  return "no JPEG frame header in the fragment";
}

void checkJpegFrame(DcmPixelData& pixels, const std::string& transferSyntaxUid, std::size_t frames,
                    std::size_t frame, const std::string& file) {
  const std::string where = "JPEG frame " + std::to_string(frame + 1);
  DcmPixelSequence* sequence = nullptr;
  const E_TransferSyntax xfer = DcmXfer(transferSyntaxUid.c_str()).getXfer();
  checkDicom(pixels.getEncapsulatedRepresentation(xfer, nullptr, sequence), file,
             "reading the JPEG fragments");
  if (sequence == nullptr || sequence->card() < 2) {
    throw Error(ErrorKind::InvalidInput, file, where + ": no JPEG fragments");
  }
  // One fragment per frame: the frame's own; otherwise the first fragment of the data.
  const unsigned long index =
      sequence->card() == frames + 1 ? static_cast<unsigned long>(frame + 1) : 1UL;
  DcmPixelItem* item = nullptr;
  checkDicom(sequence->getItem(item, index), file, where);
  Uint8* data = nullptr;
  checkDicom(item->getUint8Array(data), file, where);
  const std::string problem = jpegMarkerProblem(data, item->getLength());
  if (!problem.empty()) {
    throw Error(ErrorKind::InvalidInput, file, where + ": " + problem);
  }
}

}  // namespace delineate::core
