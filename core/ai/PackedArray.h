#pragma once
// nnInteractive's "NNIA" packed array: an n-dimensional numpy array (dtype by its numpy name,
// shape, C order, little-endian) whose bytes travel as Blosc2 chunks of at most 2^30 bytes each.
// Layout and checks in docs/ai-protocol.md ("nnInteractive arrays").
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ai/Blosc2Chunk.h"

namespace delineate::core::ai {

enum class NpDtype {
  Bool,
  UInt8,
  Int8,
  UInt16,
  Int16,
  UInt32,
  Int32,
  Int64,
  UInt64,
  Float16,
  Float32,
  Float64
};

std::size_t itemSize(NpDtype dtype);
const char* npName(NpDtype dtype);
// The dtype of a numpy name ("uint8", "float32", ...); throws Error(Unsupported) for others.
NpDtype npDtypeOf(std::string_view name);

struct PackedArray {
  NpDtype dtype = NpDtype::UInt8;
  std::vector<std::int64_t> shape;
  std::string bytes;  // product(shape) * itemSize(dtype), C order, little-endian

  std::size_t elementCount() const;
};

// Packs `bytes` (C order, little-endian, exactly product(shape) * itemSize) without copying them
// first. Images: `shuffle` true (byte planes compress better); masks and answers: false.
std::string packArray(NpDtype dtype, std::span<const std::int64_t> shape,
                      std::span<const std::byte> bytes, Blosc2Codec codec = Blosc2Codec::Zstd,
                      bool shuffle = false);

// Reads a packed array. Throws Error(InvalidInput) naming `where` for anything malformed (magic,
// version, codec id, dtype, chunk sizes that do not add up to the shape, a chunk that does not
// decode to its stated size), Error(TooLarge) when the array would exceed `maxBytes`. Nothing is
// allocated beyond what the input's own chunks account for.
PackedArray unpackArray(std::string_view packed, const std::string& where,
                        std::size_t maxBytes = std::size_t(8) << 30);

}  // namespace delineate::core::ai
