#include "core/io/DicomHeader.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcuid.h>
#include <unistd.h>

#include <limits>
#include <string>

#include "core/Error.h"

// What a parsed header answers about itself (the geometry of frame k, the size of a frame, whether
// the file can hold what it claims) and the transfer syntax predicates; the parsing is in
// DicomHeader.cpp.
namespace delineate::core {

bool isJpeg2000Syntax(const std::string& uid) {
  return uid == UID_JPEG2000LosslessOnlyTransferSyntax || uid == UID_JPEG2000TransferSyntax ||
         uid == UID_JPEG2000Part2MulticomponentImageCompressionLosslessOnlyTransferSyntax ||
         uid == UID_JPEG2000Part2MulticomponentImageCompressionTransferSyntax;
}

bool isNativeSyntax(const std::string& uid) {
  return uid == UID_LittleEndianImplicitTransferSyntax ||
         uid == UID_LittleEndianExplicitTransferSyntax ||
         uid == UID_BigEndianExplicitTransferSyntax;
}

std::size_t physicalMemory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageSize = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) {
    return std::numeric_limits<std::size_t>::max();
  }
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize);
}

DicomFrameHeader DicomFileHeader::frame(std::size_t k) const {
  if (k < perFrame.size()) {
    return perFrame[k];
  }
  DicomFrameHeader f = shared;
  if (frames <= 1) {
    return f;
  }
  if (!f.position || !f.orientation) {
    f.position.reset();
    return f;
  }
  const auto& o = *f.orientation;
  const Vec3 normal = normalized(cross({o[0], o[1], o[2]}, {o[3], o[4], o[5]}));
  double offset = 0;
  if (gridFrameOffsets.size() == frames) {
    // Relative offsets start at 0; the absolute form starts at the first frame's position.
    offset = gridFrameOffsets[k] - (gridFrameOffsets[0] != 0 ? gridFrameOffsets[0] : 0.0);
  } else if (spacingBetweenSlices > 0) {
    offset = spacingBetweenSlices * static_cast<double>(k);
  } else {
    f.position.reset();  // no way to know where this frame lies
    return f;
  }
  const Vec3& p = *f.position;
  f.position =
      Vec3{p[0] + offset * normal[0], p[1] + offset * normal[1], p[2] + offset * normal[2]};
  return f;
}

std::size_t DicomFileHeader::frameBytes() const {
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  const std::size_t bytesPerSample = (bitsAllocated + 7) / 8;
  std::size_t n = rows;
  std::size_t perRow = columns;
  std::size_t samples = samplesPerPixel;
  if (isNativeSyntax(transferSyntaxUid) &&
      (photometric == "YBR_FULL_422" || photometric == "YBR_PARTIAL_422") && samples == 3) {
    perRow = (columns + 1) / 2 * 2;  // 4:2:2 stored as is: Y1 Y2 Cb Cr for each pair of pixels
    samples = 2;
  }
  for (std::size_t factor : {perRow, samples, bytesPerSample}) {
    if (factor != 0 && n > max / factor) {
      throw Error(ErrorKind::TooLarge, path, "image size overflows");
    }
    n *= factor;
  }
  return n;
}

void DicomFileHeader::checkSizeAgainstFile(std::uintmax_t fileBytes) const {
  const std::size_t perFrameBytes = frameBytes();
  const std::string claim = std::to_string(columns) + "x" + std::to_string(rows) + "x" +
                            std::to_string(frames) + " pixels of " + std::to_string(bitsAllocated) +
                            " bits";
  if (frames != 0 && perFrameBytes > std::numeric_limits<std::size_t>::max() / frames) {
    throw Error(ErrorKind::TooLarge, path, "header claims " + claim + ": size overflows");
  }
  const double needed = static_cast<double>(perFrameBytes) * static_cast<double>(frames);
  const double have = static_cast<double>(fileBytes);
  // The most a file of this size can expand to, by transfer syntax.
  const double mib = 1024.0 * 1024.0;
  const std::string& ts = transferSyntaxUid;
  double allowed = have;  // native: the pixels are in the file verbatim
  if (ts == UID_DeflatedExplicitVRLittleEndianTransferSyntax) {
    allowed = have * 1100.0 + mib;  // deflate cannot beat ~1032:1
  } else if (ts == UID_RLELosslessTransferSyntax) {
    allowed = have * 200.0 + mib;  // a 128-byte run takes 2 bytes
  } else if (ts == UID_JPEGProcess14TransferSyntax || ts == UID_JPEGProcess14SV1TransferSyntax) {
    allowed = have * 64.0 + mib;  // Huffman: at least one bit per sample
  } else if (ts == UID_JPEGProcess1TransferSyntax || ts == UID_JPEGProcess2_4TransferSyntax) {
    allowed = have * 1000.0 + mib;  // at least a few bits per 8x8 block
  } else if (!isNativeSyntax(ts)) {
    // JPEG-LS run mode and JPEG 2000 squeeze blank images very hard: a generous ratio, but
    // never gigabytes from a few bytes.
    allowed = std::max(have * 2000.0, 256.0 * mib);
  }
  if (needed > allowed) {
    throw Error(ErrorKind::InvalidInput, path,
                "header claims " + claim + " (" +
                    std::to_string(static_cast<std::uint64_t>(needed)) +
                    " bytes) but the file holds only " + std::to_string(fileBytes) +
                    " bytes: truncated or corrupt");
  }
  if (needed > static_cast<double>(physicalMemory()) * 0.8) {
    throw Error(ErrorKind::TooLarge, path,
                "header claims " + claim + ", more than this machine's memory");
  }
}

}  // namespace delineate::core
