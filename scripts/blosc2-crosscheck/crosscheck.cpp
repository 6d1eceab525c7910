// Delineate's Blosc2 chunk writer against c-blosc2's reader, and c-blosc2's writer against
// Delineate's reader, on zeros, noise, masks and image-like floats of many sizes, element sizes,
// codecs, filters and levels. Not part of the build (Debian 12 has no c-blosc2): built and run by
// scripts/blosc2-crosscheck.sh against a c-blosc2 source tree. Prints the number of checks and
// of failures; exit status 1 on any failure.
#include <blosc2.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "core/Error.h"
#include "core/ai/Blosc2Chunk.h"

using namespace delineate::core::ai;

namespace {

int failures = 0, checks = 0;

std::string sample(int kind, std::size_t n, std::mt19937& rng) {
  std::string s(n, '\0');
  if (kind == 1) {  // noise
    for (char& c : s) {
      c = static_cast<char>(rng() % 256);
    }
  } else if (kind == 2) {  // a mask
    for (std::size_t i = n / 3; i < n / 2; ++i) {
      s[i] = 1;
    }
  } else if (kind == 3) {  // image-like floats
    for (std::size_t i = 0; i + 4 <= n; i += 4) {
      const float f = 100.f + static_cast<float>(rng() % 1000) / 10.f;
      std::memcpy(&s[i], &f, 4);
    }
  }
  return s;
}

std::span<const std::byte> bytesOf(const std::string& s) {
  return std::span(reinterpret_cast<const std::byte*>(s.data()), s.size());
}

void oursToReference(const std::string& data, int typesize, bool lz4, bool shuffle) {
  Blosc2Options o;
  o.typesize = typesize;
  o.codec = lz4 ? Blosc2Codec::Lz4 : Blosc2Codec::Zstd;
  o.shuffle = shuffle;
  const std::string chunk = encodeBlosc2Chunk(bytesOf(data), o);
  std::string out(data.size() + 64, '\x55');
  const int r = blosc2_decompress(chunk.data(), static_cast<int>(chunk.size()), out.data(),
                                  static_cast<int>(out.size()));
  ++checks;
  if (r != static_cast<int>(data.size()) || std::memcmp(out.data(), data.data(), data.size())) {
    ++failures;
    std::printf(
        "c-blosc2 cannot read ours: %zu bytes, typesize %d, %s, shuffle %d: %d (flags "
        "%02x)\n",
        data.size(), typesize, lz4 ? "LZ4" : "ZSTD", shuffle, r,
        static_cast<unsigned char>(chunk[2]));
  }
}

void referenceToOurs(const std::string& data, int typesize, int compcode, int filter, int clevel) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.typesize = typesize;
  cp.compcode = static_cast<uint8_t>(compcode);
  cp.clevel = static_cast<uint8_t>(clevel);
  cp.nthreads = 1;
  for (int i = 0; i < BLOSC2_MAX_FILTERS; ++i) {
    cp.filters[i] = 0;
  }
  cp.filters[BLOSC2_MAX_FILTERS - 1] = static_cast<uint8_t>(filter);
  blosc2_context* cx = blosc2_create_cctx(cp);
  std::string chunk(data.size() + BLOSC2_MAX_OVERHEAD, '\0');
  const int size = blosc2_compress_ctx(cx, data.data(), static_cast<int>(data.size()), chunk.data(),
                                       static_cast<int>(chunk.size()));
  blosc2_free_ctx(cx);
  if (size <= 0) {
    return;
  }
  chunk.resize(static_cast<std::size_t>(size));
  std::string out(data.size(), '\0');
  ++checks;
  try {
    decodeBlosc2Chunk(chunk, std::span(reinterpret_cast<std::byte*>(out.data()), out.size()),
                      "chunk");
    if (out != data) {
      ++failures;
      std::printf("ours misreads c-blosc2's: %zu bytes, typesize %d, codec %d, filter %d\n",
                  data.size(), typesize, compcode, filter);
    }
  } catch (const delineate::core::Error& e) {
    // Only what the reader says it does not read (BITSHUFFLE, BloscLZ) may be refused.
    if (compcode != BLOSC_BLOSCLZ && filter != BLOSC_BITSHUFFLE) {
      ++failures;
      std::printf("ours refuses c-blosc2's: %zu bytes, typesize %d, codec %d, filter %d: %s\n",
                  data.size(), typesize, compcode, filter, e.what());
    }
  }
}

}  // namespace

int main() {
  blosc2_init();
  std::mt19937 rng(7);
  for (const std::size_t n :
       {1ul, 7ul, 63ul, 64ul, 1000ul, 65536ul, 300000ul, 1000003ul, 5000000ul}) {
    for (int kind = 0; kind < 4; ++kind) {
      for (const int typesize : {1, 2, 4}) {
        for (const bool lz4 : {false, true}) {
          for (const bool shuffle : {false, true}) {
            oursToReference(sample(kind, n, rng), typesize, lz4, shuffle);
          }
        }
      }
      for (const int typesize : {1, 2, 4, 8}) {
        for (const int codec : {BLOSC_ZSTD, BLOSC_LZ4, BLOSC_BLOSCLZ}) {
          for (const int filter : {BLOSC_NOSHUFFLE, BLOSC_SHUFFLE, BLOSC_BITSHUFFLE}) {
            for (const int clevel : {0, 3, 5, 9}) {
              referenceToOurs(sample(kind, n, rng), typesize, codec, filter, clevel);
            }
          }
        }
      }
    }
    for (const int typesize : {1, 4}) {  // c-blosc2's own all-zero chunk
      blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
      cp.typesize = typesize;
      std::string chunk(BLOSC_EXTENDED_HEADER_LENGTH, '\0');
      const std::size_t bytes = n / static_cast<std::size_t>(typesize) * typesize;
      if (bytes == 0 || blosc2_chunk_zeros(cp, static_cast<int>(bytes), chunk.data(),
                                           static_cast<int>(chunk.size())) < 0) {
        continue;
      }
      std::string out(bytes, '\x11');
      ++checks;
      try {
        decodeBlosc2Chunk(chunk, std::span(reinterpret_cast<std::byte*>(out.data()), bytes), "z");
        failures += out == std::string(bytes, '\0') ? 0 : 1;
      } catch (const delineate::core::Error& e) {
        ++failures;
        std::printf("ours refuses c-blosc2's zeros: %s\n", e.what());
      }
    }
  }
  std::printf("%d checks, %d failures\n", checks, failures);
  blosc2_destroy();
  return failures != 0;
}
