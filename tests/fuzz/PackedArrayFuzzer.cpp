// libFuzzer harness: arbitrary bytes as an nnInteractive packed array (an answer of a server, or
// an upload to delineate-server) and, from byte 0's low bit, as one bare Blosc2 chunk. Anything
// but a core::Error is a finding; so is an array read that does not pack and read back the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/Error.h"
#include "core/ai/Blosc2Chunk.h"
#include "core/ai/PackedArray.h"

using namespace delineate;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) {
    return 0;
  }
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (data[0] & 1) {
      const std::size_t n = core::ai::blosc2UncompressedSize(body, "fuzz");
      if (n <= (std::size_t(64) << 20)) {
        std::string out(n, '\0');
        core::ai::decodeBlosc2Chunk(
            body, std::span(reinterpret_cast<std::byte*>(out.data()), out.size()), "fuzz");
      }
      return 0;
    }
    const core::ai::PackedArray a = core::ai::unpackArray(body, "fuzz", std::size_t(64) << 20);
    const std::string again = core::ai::packArray(
        a.dtype, a.shape,
        std::span(reinterpret_cast<const std::byte*>(a.bytes.data()), a.bytes.size()),
        (data[0] & 2) ? core::ai::Blosc2Codec::Lz4 : core::ai::Blosc2Codec::Zstd, data[0] & 4);
    const core::ai::PackedArray b =
        core::ai::unpackArray(again, "fuzz again", std::size_t(64) << 20);
    if (b.bytes != a.bytes || b.shape != a.shape || b.dtype != a.dtype) {
      std::abort();  // what was read does not survive packing
    }
  } catch (const core::Error&) {
  }
  return 0;
}
