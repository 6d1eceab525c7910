// nnInteractive's packed arrays and their Blosc2 chunks. The chunks read here are built in the
// test byte by byte as c-blosc2 lays them out (stored, one ZSTD stream per block, split byte
// planes after SHUFFLE, LZ4, run-length and all-zero streams, special values), with libzstd and
// liblz4 called directly, so the reader is not only tested on what its own writer makes.
#include <gtest/gtest.h>
#include <lz4.h>
#include <zstd.h>

#include <cmath>
#include <cstring>
#include <random>

#include "core/Error.h"
#include "core/ai/Blosc2Chunk.h"
#include "core/ai/PackedArray.h"

using namespace delineate;
using namespace delineate::core::ai;

namespace {

void putLe32(std::string& s, std::size_t at, std::int32_t v) {
  for (int i = 0; i < 4; ++i) {
    s[at + static_cast<std::size_t>(i)] =
        static_cast<char>((static_cast<std::uint32_t>(v) >> (8 * i)) & 0xFF);
  }
}

std::string le32(std::int32_t v) {
  std::string s(4, '\0');
  putLe32(s, 0, v);
  return s;
}

// A 32-byte header as c-blosc2 writes it.
std::string blosc2Header(std::uint8_t flags, std::uint8_t typesize, std::int32_t nbytes,
                         std::int32_t blocksize, std::uint8_t filterSlot5 = 0,
                         std::uint8_t udcodec = 5) {
  std::string h(32, '\0');
  h[0] = 5;
  h[1] = 1;
  h[2] = static_cast<char>(flags);
  h[3] = static_cast<char>(typesize);
  putLe32(h, 4, nbytes);
  putLe32(h, 8, blocksize);
  h[21] = static_cast<char>(filterSlot5);  // python-blosc2's default pipeline slot
  h[22] = static_cast<char>(udcodec);
  return h;
}

std::string zstdFrame(const std::string& data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 5));
  return out;
}

std::string lz4Block(const std::string& data) {
  std::string out(static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(data.size()))), '\0');
  out.resize(static_cast<std::size_t>(LZ4_compress_default(
      data.data(), out.data(), static_cast<int>(data.size()), static_cast<int>(out.size()))));
  return out;
}

std::string shuffled(const std::string& in, std::size_t typesize) {
  std::string out(in.size(), '\0');
  const std::size_t m = in.size() / typesize;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < typesize; ++j) {
      out[j * m + i] = in[i * typesize + j];
    }
  }
  return out;
}

std::string decoded(const std::string& chunk) {
  std::string out(blosc2UncompressedSize(chunk, "test"), '\0');
  decodeBlosc2Chunk(chunk, std::span(reinterpret_cast<std::byte*>(out.data()), out.size()), "test");
  return out;
}

// Float32 values that change slowly: an image row, compressible after SHUFFLE.
std::string imageBytes(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0, 3);
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    v[i] = 100.0f + 50.0f * std::sin(float(i) * 0.01f) + noise(rng);
  }
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

std::string finish(std::string chunk) {
  putLe32(chunk, 12, static_cast<std::int32_t>(chunk.size()));
  return chunk;
}

}  // namespace

TEST(Blosc2Chunk, AStoredChunkIsItsBytes) {
  const std::string data = "stored bytes of a small mask, forty-two of them..";
  const std::string chunk =
      finish(blosc2Header(0x07, 1, static_cast<std::int32_t>(data.size()), 42) + data);
  EXPECT_EQ(decoded(chunk), data);
}

TEST(Blosc2Chunk, OneZstdStreamPerBlockAsPythonBlosc2WritesMasks) {
  std::string data(4000, '\0');
  for (std::size_t i = 1500; i < 2600; ++i) {
    data[i] = 1;
  }
  std::string chunk = blosc2Header(0x95, 1, 4000, 4000);
  chunk += le32(36);  // one block starting right after its offset
  const std::string frame = zstdFrame(data);
  chunk += le32(static_cast<std::int32_t>(frame.size())) + frame;
  EXPECT_EQ(decoded(finish(chunk)), data);
}

TEST(Blosc2Chunk, SplitByteStreamsAfterShuffleAsForImages) {
  // typesize 4, two full blocks of 4096 bytes and a partial one of 1000: the full blocks are
  // shuffled and cut into 4 byte planes, each its own ZSTD stream; the last is one stream.
  const std::string data = imageBytes((2 * 4096 + 1000) / 4, 3);
  std::string chunk = blosc2Header(0x85, 4, static_cast<std::int32_t>(data.size()), 4096, 1);
  const std::size_t offsets = chunk.size();
  chunk += std::string(12, '\0');
  for (std::size_t b = 0; b < 3; ++b) {
    putLe32(chunk, offsets + 4 * b, static_cast<std::int32_t>(chunk.size()));
    const std::string block = data.substr(b * 4096, 4096);
    const std::string planes = shuffled(block, 4);
    const std::size_t streams = block.size() == 4096 ? 4 : 1;
    for (std::size_t s = 0; s < streams; ++s) {
      const std::string stream = planes.substr(s * block.size() / streams, block.size() / streams);
      const std::string frame = zstdFrame(stream);
      chunk += le32(static_cast<std::int32_t>(frame.size())) + frame;
    }
  }
  EXPECT_EQ(decoded(finish(chunk)), data);
}

TEST(Blosc2Chunk, Lz4BlocksZeroStreamsRunsAndRawStreams) {
  // Four blocks of 256 bytes: LZ4, an all-zero stream (csize 0), a run of 7s (csize -7 and a
  // token), and a stream stored raw because it did not compress (csize = its length).
  std::string data(1024, '\0');
  for (std::size_t i = 0; i < 256; ++i) {
    data[i] = static_cast<char>(i % 5);
  }
  std::fill(data.begin() + 512, data.begin() + 768, 7);
  std::mt19937 rng(1);
  for (std::size_t i = 768; i < 1024; ++i) {
    data[i] = static_cast<char>(rng() & 0xFF);
  }
  std::string chunk = blosc2Header(0x35, 1, 1024, 256, 0, 1);
  const std::size_t offsets = chunk.size();
  chunk += std::string(16, '\0');
  putLe32(chunk, offsets, static_cast<std::int32_t>(chunk.size()));
  const std::string lz = lz4Block(data.substr(0, 256));
  chunk += le32(static_cast<std::int32_t>(lz.size())) + lz;
  putLe32(chunk, offsets + 4, static_cast<std::int32_t>(chunk.size()));
  chunk += le32(0);
  putLe32(chunk, offsets + 8, static_cast<std::int32_t>(chunk.size()));
  chunk += le32(-7) + std::string(1, '\x01');
  putLe32(chunk, offsets + 12, static_cast<std::int32_t>(chunk.size()));
  chunk += le32(256) + data.substr(768);
  EXPECT_EQ(decoded(finish(chunk)), data);
}

TEST(Blosc2Chunk, SpecialValueChunks) {
  // As c-blosc2's blosc2_chunk_zeros() writes them (flags 0x05) and as compress2() does
  // (its usual flags, here ZSTD without split, 0x95).
  for (const std::uint8_t flags : {0x05, 0x95}) {
    std::string zeros = blosc2Header(flags, 1, 5000, 5000);
    zeros[31] = 0x10;
    EXPECT_EQ(decoded(finish(zeros)), std::string(5000, '\0')) << int(flags);
  }
  // With the "stored" flag c-blosc2 refuses a chunk shorter than its data, special or not;
  // so does this reader, so that what it takes the reference library takes too.
  std::string storedZeros = blosc2Header(0x07, 1, 5000, 5000);
  storedZeros[31] = 0x10;
  EXPECT_THROW(decoded(finish(storedZeros)), delineate::core::Error);
  std::string nan = blosc2Header(0x05, 4, 16, 16);
  nan[31] = 0x20;
  const std::string n = decoded(finish(nan));
  float f[4];
  std::memcpy(f, n.data(), 16);
  EXPECT_TRUE(std::isnan(f[0]) && std::isnan(f[3]));
  std::string repeated = blosc2Header(0x05, 2, 8, 8);
  repeated[31] = 0x30;
  EXPECT_EQ(decoded(finish(repeated + std::string("\x34\x12", 2))),
            std::string("\x34\x12\x34\x12\x34\x12\x34\x12", 8));
}

TEST(Blosc2Chunk, WhatItWritesItReadsBackForEveryCodecAndFilter) {
  const std::string image = imageBytes(300000, 5);  // 1.2 MB: several blocks
  std::string mask(700000, '\0');
  for (std::size_t i = 200000; i < 260000; ++i) {
    mask[i] = 1;
  }
  for (const Blosc2Codec codec : {Blosc2Codec::Zstd, Blosc2Codec::Lz4}) {
    for (const bool shuffle : {false, true}) {
      Blosc2Options o;
      o.codec = codec;
      o.shuffle = shuffle;
      o.typesize = 4;
      const std::string a = encodeBlosc2Chunk(
          std::span(reinterpret_cast<const std::byte*>(image.data()), image.size()), o);
      EXPECT_EQ(decoded(a), image);
      // Noisy floats compress once their byte planes are apart; else they may be stored.
      EXPECT_LE(a.size(), shuffle ? image.size() * 9 / 10 : image.size() + 32);
      o.typesize = 1;
      const std::string b = encodeBlosc2Chunk(
          std::span(reinterpret_cast<const std::byte*>(mask.data()), mask.size()), o);
      EXPECT_EQ(decoded(b), mask);
      EXPECT_LT(b.size(), mask.size() / 100);
    }
  }
  // All zeros: the 32-byte special chunk.
  const std::string zeros(100000, '\0');
  const std::string z = encodeBlosc2Chunk(
      std::span(reinterpret_cast<const std::byte*>(zeros.data()), zeros.size()), {});
  EXPECT_EQ(z.size(), 32u);
  EXPECT_EQ(decoded(z), zeros);
  // Written as c-blosc2 writes zeros: not "stored" (flag 0x02), the extended header (0x05),
  // the zeros mark, and blocks a reader can fill quickly (not one per byte).
  EXPECT_EQ(static_cast<std::uint8_t>(z[2]) & 0x02, 0);
  EXPECT_EQ(static_cast<std::uint8_t>(z[2]) & 0x05, 0x05);
  EXPECT_EQ(static_cast<std::uint8_t>(z[31]), 0x10);
  std::int32_t blocksize = 0;
  std::memcpy(&blocksize, z.data() + 8, 4);
  EXPECT_GE(blocksize, 32768);
  // Noise does not compress: stored.
  std::string noise(5000, '\0');
  std::mt19937 rng(2);
  for (char& c : noise) {
    c = static_cast<char>(rng() & 0xFF);
  }
  const std::string s = encodeBlosc2Chunk(
      std::span(reinterpret_cast<const std::byte*>(noise.data()), noise.size()), {});
  EXPECT_EQ(static_cast<std::uint8_t>(s[2]), 0x07);
  EXPECT_EQ(decoded(s), noise);
}

TEST(Blosc2Chunk, MalformedAndRefusedChunksAreNamed) {
  auto fails = [](const std::string& chunk, core::ErrorKind kind, const std::string& words) {
    std::string out(64, '\0');
    try {
      const std::size_t n = blosc2UncompressedSize(chunk, "answer of server");
      out.resize(n);
      decodeBlosc2Chunk(chunk, std::span(reinterpret_cast<std::byte*>(out.data()), out.size()),
                        "answer of server");
      ADD_FAILURE() << "accepted: " << words;
    } catch (const core::Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("answer of server"), std::string::npos) << e.what();
    }
  };
  fails("short", core::ErrorKind::InvalidInput, "32-byte header");
  std::string blosc1 = blosc2Header(0x01, 1, 4, 4);
  blosc1[0] = 2;
  fails(finish(blosc1), core::ErrorKind::Unsupported, "Blosc1");
  std::string zlib = blosc2Header(0x75, 1, 64, 64);  // codec format 3
  fails(finish(zlib + le32(36) + le32(5) + "xxxxx"), core::ErrorKind::Unsupported, "codec");
  std::string bitshuffle = blosc2Header(0x95, 1, 4, 4, 2);
  const std::string frame = zstdFrame("abcd");
  fails(finish(bitshuffle + le32(36) + le32(static_cast<std::int32_t>(frame.size())) + frame),
        core::ErrorKind::Unsupported, "BITSHUFFLE");
  std::string past = blosc2Header(0x95, 1, 64, 64);
  fails(finish(past + le32(36) + le32(1000) + "zz"), core::ErrorKind::InvalidInput,
        "runs past the chunk");
  std::string badStart = blosc2Header(0x95, 1, 64, 64);
  fails(finish(badStart + le32(9999)), core::ErrorKind::InvalidInput, "starts at");
  std::string wrongLength = blosc2Header(0x07, 1, 10, 10) + "0123456789";
  putLe32(wrongLength, 12, 50);
  fails(wrongLength, core::ErrorKind::InvalidInput, "says it is 50 bytes");
}

TEST(PackedArray, HeaderLayoutAsNnInteractiveWritesIt) {
  const std::vector<std::int64_t> shape{1, 2, 3};
  const std::string bytes(6, '\x01');
  const std::string p = packArray(NpDtype::UInt8, shape,
                                  std::span(reinterpret_cast<const std::byte*>(bytes.data()), 6));
  ASSERT_GT(p.size(), 8u + 5 + 24 + 4 + 16);
  EXPECT_EQ(p.substr(0, 4), "NNIA");
  EXPECT_EQ(p[4], 1);                  // version
  EXPECT_EQ(p[5], 1);                  // ZSTD
  EXPECT_EQ(p[6], 3);                  // ndim
  EXPECT_EQ(p[7], 5);                  // "uint8"
  EXPECT_EQ(p.substr(8, 5), "uint8");  // dtype name
  EXPECT_EQ(p[13], 1);                 // shape[0], int64 little-endian
  EXPECT_EQ(p[21], 2);
  EXPECT_EQ(p[29], 3);
  EXPECT_EQ(p[37], 1);  // one chunk
  EXPECT_EQ(p[41], 6);  // ulen
  const PackedArray a = unpackArray(p, "test");
  EXPECT_EQ(a.dtype, NpDtype::UInt8);
  EXPECT_EQ(a.shape, shape);
  EXPECT_EQ(a.bytes, bytes);
}

TEST(PackedArray, RoundTripsEveryDtypeAndTheEmptyArray) {
  for (const char* name : {"bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "int64",
                           "uint64", "float16", "float32", "float64"}) {
    const NpDtype d = npDtypeOf(name);
    const std::vector<std::int64_t> shape{1, 5, 7, 9};
    const std::string bytes =
        imageBytes(5 * 7 * 9 * itemSize(d) / 4 + 1, 9).substr(0, 5 * 7 * 9 * itemSize(d));
    const std::string p = packArray(
        d, shape, std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()),
        Blosc2Codec::Lz4, true);
    const PackedArray a = unpackArray(p, "test");
    EXPECT_EQ(std::string(npName(a.dtype)), name);
    EXPECT_EQ(a.shape, shape);
    EXPECT_EQ(a.bytes, bytes) << name;
  }
  const std::vector<std::int64_t> none{0, 4};
  const std::string p = packArray(NpDtype::Int16, none, {});
  EXPECT_EQ(p.substr(p.size() - 4), std::string(4, '\0'));  // no chunks
  EXPECT_TRUE(unpackArray(p, "test").bytes.empty());
}

TEST(PackedArray, ClaimsTheInputCannotBackAreRefusedBeforeAllocating) {
  const std::vector<std::int64_t> shape{4, 4};
  const std::string bytes(16, '\x02');
  const std::string good = packArray(
      NpDtype::UInt8, shape, std::span(reinterpret_cast<const std::byte*>(bytes.data()), 16));
  auto refusal = [](const std::string& p, std::size_t limit = std::size_t(1) << 20) {
    try {
      unpackArray(p, "reply of http://gpu:1527", limit);
    } catch (const core::Error& e) {
      EXPECT_NE(std::string(e.what()).find("gpu:1527"), std::string::npos);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal(good.substr(0, good.size() - 3)).find("ends inside"), std::string::npos);
  std::string badMagic = good;
  badMagic[0] = 'X';
  EXPECT_NE(refusal(badMagic).find("magic"), std::string::npos);
  std::string version = good;
  version[4] = 2;
  EXPECT_NE(refusal(version).find("version 2"), std::string::npos);
  std::string dtype = good;
  dtype.replace(8, 5, "uint9");
  EXPECT_NE(refusal(dtype).find("uint9"), std::string::npos);
  // A shape of 2^40 x 2^20 bytes: refused by size, nothing allocated.
  std::string huge = good;
  huge[13 + 5] = 1;
  EXPECT_NE(refusal(huge).find("larger than"), std::string::npos);
  // The chunk announces more bytes than the shape holds.
  std::string more = good;
  more[33] = 17;  // ulen, after 8 + 5 + 2 x 8 + 4 bytes
  EXPECT_NE(refusal(more).find("more than its shape"), std::string::npos);
  // The shape says 16 bytes, the chunks only 8.
  std::string fewer = good;
  fewer[13] = 8;  // 8 x 4 = 32 bytes; the chunk holds 16
  EXPECT_NE(refusal(fewer).find("hold 16 bytes"), std::string::npos);
}
