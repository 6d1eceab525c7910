#include "core/ai/Blosc2Chunk.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "core/Error.h"

namespace delineate::core::ai {

namespace {

constexpr std::size_t kHeader = 32;
constexpr std::uint8_t kFlagExtended = 0x05;  // bits 0 and 2 together: the 32-byte header
constexpr std::uint8_t kFlagMemcpyed = 0x02;
constexpr std::uint8_t kFlagNoSplit = 0x10;
constexpr int kFormatLz4 = 1;
constexpr int kFormatZstd = 4;
constexpr int kFormatUser = 6;
constexpr std::size_t kMaxBlock = 536866816;
constexpr std::size_t kMaxNbytes = std::numeric_limits<std::int32_t>::max() - kHeader;

std::int32_t readInt32(const std::byte* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) {
    v = (v << 8) | static_cast<std::uint8_t>(p[i]);
  }
  return static_cast<std::int32_t>(v);
}

void writeInt32(std::string& out, std::size_t at, std::int32_t value) {
  const auto v = static_cast<std::uint32_t>(value);
  for (int i = 0; i < 4; ++i) {
    out[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
  }
}

struct Header {
  std::uint8_t version = 0;
  std::uint8_t flags = 0;
  std::size_t typesize = 1;
  std::size_t nbytes = 0;
  std::size_t blocksize = 0;
  std::size_t cbytes = 0;
  std::uint8_t filters[6] = {};
  std::uint8_t udcodec = 0;
  std::uint8_t filtersMeta[6] = {};
  std::uint8_t flags2 = 0;
  std::uint8_t blosc2Flags = 0;
};

[[noreturn]] void malformed(const std::string& where, const std::string& what) {
  throw Error(ErrorKind::InvalidInput, where, "Blosc2 chunk: " + what);
}

[[noreturn]] void refused(const std::string& where, const std::string& what) {
  throw Error(ErrorKind::Unsupported, where, "Blosc2 chunk: " + what);
}

Header readHeader(std::string_view chunk, const std::string& where) {
  if (chunk.size() < kHeader) {
    malformed(where, std::to_string(chunk.size()) + " bytes, shorter than its 32-byte header");
  }
  const auto* p = reinterpret_cast<const std::byte*>(chunk.data());
  Header h;
  h.version = static_cast<std::uint8_t>(p[0]);
  h.flags = static_cast<std::uint8_t>(p[2]);
  h.typesize = static_cast<std::uint8_t>(p[3]);
  const std::int32_t nbytes = readInt32(p + 4), blocksize = readInt32(p + 8),
                     cbytes = readInt32(p + 12);
  if (h.version == 2 || (h.flags & kFlagExtended) != kFlagExtended) {
    refused(where, "a Blosc1 (16-byte) header; nnInteractive sends Blosc2 chunks");
  }
  if (h.version < 3 || h.version > 5) {
    refused(where, "header version " + std::to_string(h.version) + " (3 to 5 are read)");
  }
  if (nbytes < 0 || static_cast<std::size_t>(nbytes) > kMaxNbytes) {
    malformed(where, "uncompressed size " + std::to_string(nbytes));
  }
  if (cbytes < static_cast<std::int32_t>(kHeader) ||
      static_cast<std::size_t>(cbytes) != chunk.size()) {
    malformed(where, "says it is " + std::to_string(cbytes) + " bytes long but " +
                         std::to_string(chunk.size()) + " were given");
  }
  if (h.typesize == 0) {
    malformed(where, "element size 0");
  }
  h.nbytes = static_cast<std::size_t>(nbytes);
  h.cbytes = static_cast<std::size_t>(cbytes);
  h.blocksize = blocksize > 0 ? static_cast<std::size_t>(blocksize) : 0;
  for (int i = 0; i < 6; ++i) {
    h.filters[i] = static_cast<std::uint8_t>(p[16 + i]);
    h.filtersMeta[i] = static_cast<std::uint8_t>(p[24 + i]);
  }
  h.udcodec = static_cast<std::uint8_t>(p[22]);
  h.flags2 = static_cast<std::uint8_t>(p[30]);
  h.blosc2Flags = static_cast<std::uint8_t>(p[31]);
  if (h.flags2 != 0) {
    refused(where, "variable-length blocks");
  }
  if (h.blosc2Flags & 0x01) {
    refused(where, "a compression dictionary");
  }
  if (h.blosc2Flags & 0x02) {
    refused(where, "big-endian data");
  }
  if (h.blosc2Flags & 0x08) {
    refused(where, "a lazy chunk (only its header)");
  }
  if (h.blosc2Flags & 0x80) {
    refused(where, "an instrumented codec");
  }
  return h;
}

void fillSpecial(const Header& h, std::string_view chunk, std::span<std::byte> out,
                 const std::string& where) {
  const int special = (h.blosc2Flags >> 4) & 0x07;
  switch (special) {
    case 1:  // zeros
    case 4:  // uninitialised: zero it
      std::fill(out.begin(), out.end(), std::byte{0});
      return;
    case 2: {  // NaN of the element size
      if (h.typesize == 4) {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (std::size_t i = 0; i + 4 <= out.size(); i += 4) {
          std::memcpy(out.data() + i, &nan, 4);
        }
      } else if (h.typesize == 8) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (std::size_t i = 0; i + 8 <= out.size(); i += 8) {
          std::memcpy(out.data() + i, &nan, 8);
        }
      } else {
        malformed(where, "NaN chunk of " + std::to_string(h.typesize) + "-byte elements");
      }
      return;
    }
    case 3: {  // one element, repeated
      const std::size_t size = h.cbytes - kHeader;
      if (size == 0 || size != h.typesize || out.size() % size != 0) {
        malformed(where, "repeated-value chunk with a " + std::to_string(size) + "-byte value");
      }
      for (std::size_t i = 0; i < out.size(); i += size) {
        std::memcpy(out.data() + i, chunk.data() + kHeader, size);
      }
      return;
    }
    default:
      malformed(where, "special value " + std::to_string(special));
  }
}

int codecFormat(const Header& h, const std::string& where) {
  int format = h.flags >> 5;
  if (format == kFormatUser) {
    format = h.udcodec == 5 ? kFormatZstd : (h.udcodec == 1 || h.udcodec == 2) ? kFormatLz4 : -1;
  }
  if (format != kFormatZstd && format != kFormatLz4) {
    refused(where, "codec " + std::to_string(h.flags >> 5) + "/" + std::to_string(h.udcodec) +
                       " (ZSTD and LZ4 are read)");
  }
  return format;
}

void decodeStream(int format, const std::byte* src, std::size_t srcSize, std::byte* dst,
                  std::size_t dstSize, const std::string& where) {
  if (format == kFormatZstd) {
    const std::size_t n = ZSTD_decompress(dst, dstSize, src, srcSize);
    if (ZSTD_isError(n) || n != dstSize) {
      malformed(where, std::string("ZSTD stream does not decode to ") + std::to_string(dstSize) +
                           " bytes" +
                           (ZSTD_isError(n) ? std::string(": ") + ZSTD_getErrorName(n) : ""));
    }
    return;
  }
  if (srcSize > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    malformed(where, "LZ4 stream too long");
  }
  const int n =
      LZ4_decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst),
                          static_cast<int>(srcSize), static_cast<int>(dstSize));
  if (n < 0 || static_cast<std::size_t>(n) != dstSize) {
    malformed(where, "LZ4 stream does not decode to " + std::to_string(dstSize) + " bytes");
  }
}

void unshuffle(const std::byte* in, std::byte* out, std::size_t len, std::size_t typesize) {
  const std::size_t m = len / typesize;
  for (std::size_t j = 0; j < typesize; ++j) {
    const std::byte* plane = in + j * m;
    for (std::size_t i = 0; i < m; ++i) {
      out[i * typesize + j] = plane[i];
    }
  }
  std::memcpy(out + m * typesize, in + m * typesize, len - m * typesize);
}

void shuffle(const std::byte* in, std::byte* out, std::size_t len, std::size_t typesize) {
  const std::size_t m = len / typesize;
  for (std::size_t j = 0; j < typesize; ++j) {
    std::byte* plane = out + j * m;
    for (std::size_t i = 0; i < m; ++i) {
      plane[i] = in[i * typesize + j];
    }
  }
  std::memcpy(out + m * typesize, in + m * typesize, len - m * typesize);
}

// Undoes the filter pipeline of one block in place (slots 5 to 0).
void undoFilters(const Header& h, std::byte* block, std::size_t len, std::vector<std::byte>& tmp,
                 const std::string& where) {
  for (int slot = 5; slot >= 0; --slot) {
    switch (h.filters[slot]) {
      case 0:  // none
      case 4:  // TRUNC_PREC: nothing to undo
        break;
      case 1: {
        const std::size_t group = h.filtersMeta[slot] != 0 ? h.filtersMeta[slot] : h.typesize;
        tmp.resize(len);
        unshuffle(block, tmp.data(), len, group);
        std::memcpy(block, tmp.data(), len);
        break;
      }
      case 2:
        refused(where, "the BITSHUFFLE filter");
      case 3:
        refused(where, "the DELTA filter");
      default:
        refused(where, "filter " + std::to_string(h.filters[slot]));
    }
  }
}

}  // namespace

std::size_t blosc2UncompressedSize(std::string_view chunk, const std::string& where) {
  return readHeader(chunk, where).nbytes;
}

void decodeBlosc2Chunk(std::string_view chunk, std::span<std::byte> out, const std::string& where) {
  const Header h = readHeader(chunk, where);
  if (out.size() != h.nbytes) {
    malformed(where, "holds " + std::to_string(h.nbytes) + " bytes, " + std::to_string(out.size()) +
                         " expected");
  }
  // As c-blosc2 reads a chunk: a stored chunk must hold its whole data, special or not (so a
  // chunk this reader takes, the reference library takes too).
  if ((h.flags & kFlagMemcpyed) && h.cbytes != kHeader + h.nbytes) {
    malformed(where, "stored chunk of " + std::to_string(h.cbytes) + " bytes for " +
                         std::to_string(h.nbytes) + " bytes of data");
  }
  if ((h.blosc2Flags >> 4) & 0x07) {
    fillSpecial(h, chunk, out, where);
    return;
  }
  const auto* base = reinterpret_cast<const std::byte*>(chunk.data());
  if (h.flags & kFlagMemcpyed) {
    std::memcpy(out.data(), base + kHeader, h.nbytes);
    return;
  }
  if (h.nbytes == 0) {
    return;
  }
  if (h.blocksize == 0 || h.blocksize > kMaxBlock) {
    malformed(where, "block size " + std::to_string(h.blocksize));
  }
  const std::size_t blocksize = std::min(h.blocksize, h.nbytes);
  const std::size_t nblocks = (h.nbytes + blocksize - 1) / blocksize;
  if (nblocks > (h.cbytes - kHeader) / 4) {
    malformed(where, std::to_string(nblocks) + " block offsets do not fit in " +
                         std::to_string(h.cbytes) + " bytes");
  }
  const int format = codecFormat(h, where);
  std::vector<std::byte> tmp;
  for (std::size_t b = 0; b < nblocks; ++b) {
    const std::size_t len = std::min(blocksize, h.nbytes - b * blocksize);
    const bool split = !(h.flags & kFlagNoSplit) && len == blocksize && h.typesize > 1;
    const std::size_t streams = split ? h.typesize : 1;
    if (len % streams != 0) {
      malformed(where, "block " + std::to_string(b) + " does not split into " +
                           std::to_string(streams) + " streams");
    }
    const std::size_t streamLen = len / streams;
    const std::int32_t start = readInt32(base + kHeader + 4 * b);
    if (start < 0 || static_cast<std::size_t>(start) < kHeader + 4 * nblocks ||
        static_cast<std::size_t>(start) > h.cbytes) {
      malformed(where, "block " + std::to_string(b) + " starts at " + std::to_string(start));
    }
    std::size_t pos = static_cast<std::size_t>(start);
    std::byte* dst = out.data() + b * blocksize;
    for (std::size_t s = 0; s < streams; ++s) {
      if (h.cbytes - pos < 4) {
        malformed(where, "block " + std::to_string(b) + " ends early");
      }
      const std::int32_t csize = readInt32(base + pos);
      pos += 4;
      std::byte* streamOut = dst + s * streamLen;
      if (csize == 0) {
        std::fill(streamOut, streamOut + streamLen, std::byte{0});
      } else if (csize < 0) {
        if (pos >= h.cbytes || (static_cast<std::uint8_t>(base[pos]) & 0x01) == 0) {
          malformed(where, "run-length stream with an unknown token");
        }
        pos += 1;
        const auto value = static_cast<std::byte>((-static_cast<std::int64_t>(csize)) & 0xFF);
        std::fill(streamOut, streamOut + streamLen, value);
      } else {
        const auto size = static_cast<std::size_t>(csize);
        if (size > h.cbytes - pos) {
          malformed(where, "stream of " + std::to_string(size) + " bytes runs past the chunk");
        }
        if (size == streamLen) {
          std::memcpy(streamOut, base + pos, size);
        } else {
          decodeStream(format, base + pos, size, streamOut, streamLen, where);
        }
        pos += size;
      }
    }
    undoFilters(h, dst, len, tmp, where);
  }
}

std::string encodeBlosc2Chunk(std::span<const std::byte> data, const Blosc2Options& options) {
  const std::size_t typesize = static_cast<std::size_t>(std::clamp(options.typesize, 1, 255));
  if (data.size() > kMaxNbytes - 32) {
    throw Error(ErrorKind::TooLarge, "Blosc2 chunk",
                std::to_string(data.size()) + " bytes are more than one chunk holds");
  }
  const auto nbytes = static_cast<std::int32_t>(data.size());
  std::string out(kHeader, '\0');
  out[0] = 5;
  out[1] = 1;
  out[3] = static_cast<char>(typesize);
  writeInt32(out, 4, nbytes);
  out[22] = options.codec == Blosc2Codec::Zstd ? 5 : 1;
  const bool allZero =
      std::all_of(data.begin(), data.end(), [](std::byte b) { return b == std::byte{0}; });
  auto finishStored = [&] {
    out.resize(kHeader);
    out[2] = 0x07;
    std::fill(out.begin() + 16, out.begin() + 22, '\0');
    std::size_t block = std::min<std::size_t>(data.size(), 4 << 20) / typesize * typesize;
    writeInt32(out, 8, static_cast<std::int32_t>(std::max<std::size_t>(block, 1)));
    out.append(reinterpret_cast<const char*>(data.data()), data.size());
    writeInt32(out, 12, static_cast<std::int32_t>(out.size()));
    return out;
  };
  if (allZero && !data.empty()) {
    // As c-blosc2 writes zeros: the extended header only, never the "stored" flag (its reader
    // refuses a stored chunk shorter than its data), and blocks of up to 256 KiB (it fills the
    // data block by block).
    out[2] = static_cast<char>(kFlagExtended);
    const std::size_t block = std::min<std::size_t>(data.size(), 256u << 10) / typesize * typesize;
    writeInt32(out, 8, static_cast<std::int32_t>(std::max(block, typesize)));
    writeInt32(out, 12, static_cast<std::int32_t>(kHeader));
    out[31] = 0x10;  // special value: zeros
    return out;
  }
  if (data.size() < 64) {
    return finishStored();
  }
  const bool zstd = options.codec == Blosc2Codec::Zstd;
  out[2] =
      static_cast<char>(kFlagExtended | kFlagNoSplit | ((zstd ? kFormatZstd : kFormatLz4) << 5));
  const bool shuffled = options.shuffle && typesize > 1;
  out[16] = shuffled ? 1 : 0;
  std::size_t blocksize = std::max<std::size_t>((256u << 10) / typesize * typesize, typesize);
  blocksize = std::min(blocksize, data.size());
  writeInt32(out, 8, static_cast<std::int32_t>(blocksize));
  const std::size_t nblocks = (data.size() + blocksize - 1) / blocksize;
  out.resize(kHeader + 4 * nblocks);
  std::vector<std::byte> shuffledBlock;
  std::vector<char> packed(
      std::max(ZSTD_compressBound(blocksize),
               static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(blocksize)))));
  ZSTD_CCtx* cctx = zstd ? ZSTD_createCCtx() : nullptr;
  for (std::size_t b = 0; b < nblocks; ++b) {
    const std::size_t len = std::min(blocksize, data.size() - b * blocksize);
    const std::byte* src = data.data() + b * blocksize;
    if (shuffled) {
      shuffledBlock.resize(len);
      shuffle(src, shuffledBlock.data(), len, typesize);
      src = shuffledBlock.data();
    }
    std::size_t n = 0;
    if (zstd) {
      n = ZSTD_compressCCtx(cctx, packed.data(), packed.size(), src, len, options.level);
      n = ZSTD_isError(n) ? len : n;
    } else {
      const int r = LZ4_compress_default(reinterpret_cast<const char*>(src), packed.data(),
                                         static_cast<int>(len), static_cast<int>(packed.size()));
      n = r > 0 ? static_cast<std::size_t>(r) : len;
    }
    writeInt32(out, kHeader + 4 * b, static_cast<std::int32_t>(out.size()));
    const std::size_t at = out.size();
    out.resize(at + 4);
    if (n >= len) {  // does not pay: the raw block, marked by its length
      writeInt32(out, at, static_cast<std::int32_t>(len));
      out.append(reinterpret_cast<const char*>(src), len);
    } else {
      writeInt32(out, at, static_cast<std::int32_t>(n));
      out.append(packed.data(), n);
    }
  }
  ZSTD_freeCCtx(cctx);
  if (out.size() >= kHeader + data.size()) {
    return finishStored();
  }
  writeInt32(out, 12, static_cast<std::int32_t>(out.size()));
  return out;
}

}  // namespace delineate::core::ai
