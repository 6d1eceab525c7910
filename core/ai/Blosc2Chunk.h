#pragma once
// One Blosc2 chunk, as python-blosc2's compress2/decompress2 exchange them, read and written on
// Debian's libzstd and liblz4 (Debian 12 has no libblosc2). The layout is in
// docs/ai-protocol.md ("Blosc2 chunks"): a 32-byte header, then a special value, the raw bytes,
// or blocks of one or several compressed streams, with the SHUFFLE filter undone per block.
//
// Reading accepts what c-blosc2 writes for nnInteractive: header versions 3 to 5, the ZSTD and
// LZ4/LZ4HC codecs, split and unsplit blocks, zero / NaN / repeated-value / uninitialised special
// chunks, and the NOFILTER, SHUFFLE and TRUNC_PREC filters. Anything else (BloscLZ, zlib,
// BITSHUFFLE, DELTA, dictionaries, big-endian data, variable-length blocks) is refused, naming it.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace delineate::core::ai {

enum class Blosc2Codec { Zstd, Lz4 };

struct Blosc2Options {
  Blosc2Codec codec = Blosc2Codec::Zstd;
  int typesize = 1;      // element size, 1..255; blocks are cut at multiples of it
  bool shuffle = false;  // byte-shuffle each block before compressing (images)
  int level = 3;         // zstd level (LZ4 ignores it)
};

// The uncompressed size a chunk's header claims; throws Error(InvalidInput) naming `where` for
// bytes that are no Blosc2 chunk.
std::size_t blosc2UncompressedSize(std::string_view chunk, const std::string& where);

// Decodes `chunk` (exactly its header's cbytes long) into `out`, whose size must equal the
// header's nbytes. Throws Error(InvalidInput) naming `where` for a malformed chunk, and
// Error(Unsupported) for a valid one that uses a codec or filter listed above as refused. Never
// reads outside `chunk` or writes outside `out`.
void decodeBlosc2Chunk(std::string_view chunk, std::span<std::byte> out, const std::string& where);

// Encodes `data` (at most 2^31 - 64 bytes) as one chunk that c-blosc2 reads: a 32-byte
// "all zeros" chunk when every byte is 0, the raw bytes when compressing does not pay, else
// unsplit blocks of one ZSTD frame or LZ4 block each.
std::string encodeBlosc2Chunk(std::span<const std::byte> data, const Blosc2Options& options);

}  // namespace delineate::core::ai
