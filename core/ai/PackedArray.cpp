#include "core/ai/PackedArray.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "core/Error.h"

namespace delineate::core::ai {

namespace {

constexpr std::size_t kPiece = std::size_t(1) << 30;

struct DtypeName {
  NpDtype dtype;
  const char* name;
  std::size_t size;
};

constexpr std::array<DtypeName, 12> kDtypes{{{NpDtype::Bool, "bool", 1},
                                             {NpDtype::UInt8, "uint8", 1},
                                             {NpDtype::Int8, "int8", 1},
                                             {NpDtype::UInt16, "uint16", 2},
                                             {NpDtype::Int16, "int16", 2},
                                             {NpDtype::UInt32, "uint32", 4},
                                             {NpDtype::Int32, "int32", 4},
                                             {NpDtype::Int64, "int64", 8},
                                             {NpDtype::UInt64, "uint64", 8},
                                             {NpDtype::Float16, "float16", 2},
                                             {NpDtype::Float32, "float32", 4},
                                             {NpDtype::Float64, "float64", 8}}};

const DtypeName& entry(NpDtype d) {
  for (const auto& e : kDtypes) {
    if (e.dtype == d) {
      return e;
    }
  }
  return kDtypes[1];
}

void appendLe(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) {
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
}

class Reader {
 public:
  Reader(std::string_view in, const std::string& where) : in_(in), where_(where) {}
  std::string_view take(std::size_t n, const char* what) {
    if (in_.size() - pos_ < n) {
      throw Error(ErrorKind::InvalidInput, where_,
                  std::string("packed array ends inside its ") + what + " (byte " +
                      std::to_string(pos_) + " of " + std::to_string(in_.size()) + ")");
    }
    const std::string_view out = in_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  std::uint64_t le(int bytes, const char* what) {
    const std::string_view b = take(static_cast<std::size_t>(bytes), what);
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) {
      v = (v << 8) | static_cast<std::uint8_t>(b[static_cast<std::size_t>(i)]);
    }
    return v;
  }
  std::size_t position() const { return pos_; }
  std::size_t size() const { return in_.size(); }

 private:
  std::string_view in_;
  const std::string& where_;
  std::size_t pos_ = 0;
};

}  // namespace

std::size_t itemSize(NpDtype dtype) {
  return entry(dtype).size;
}

const char* npName(NpDtype dtype) {
  return entry(dtype).name;
}

NpDtype npDtypeOf(std::string_view name) {
  for (const auto& e : kDtypes) {
    if (name == e.name) {
      return e.dtype;
    }
  }
  throw Error(ErrorKind::Unsupported, "packed array", "dtype \"" + std::string(name) + "\"");
}

std::size_t PackedArray::elementCount() const {
  std::size_t n = 1;
  for (const std::int64_t d : shape) {
    n *= static_cast<std::size_t>(d);
  }
  return n;
}

std::string packArray(NpDtype dtype, std::span<const std::int64_t> shape,
                      std::span<const std::byte> bytes, Blosc2Codec codec, bool shuffle) {
  std::size_t expected = itemSize(dtype);
  for (const std::int64_t d : shape) {
    if (d < 0) {
      throw Error(ErrorKind::InvalidInput, "packed array", "negative dimension");
    }
    expected *= static_cast<std::size_t>(d);
  }
  if (expected != bytes.size() || shape.size() > 255) {
    throw Error(ErrorKind::Internal, "packed array",
                std::to_string(bytes.size()) + " bytes for a shape of " + std::to_string(expected) +
                    " bytes");
  }
  std::string out = "NNIA";
  out.push_back(1);
  out.push_back(codec == Blosc2Codec::Zstd ? 1 : 2);
  out.push_back(static_cast<char>(shape.size()));
  const std::string name = npName(dtype);
  out.push_back(static_cast<char>(name.size()));
  out += name;
  for (const std::int64_t d : shape) {
    appendLe(out, static_cast<std::uint64_t>(d), 8);
  }
  const std::size_t pieces = (bytes.size() + kPiece - 1) / kPiece;
  appendLe(out, pieces, 4);
  Blosc2Options options;
  options.codec = codec;
  options.typesize = static_cast<int>(itemSize(dtype));
  options.shuffle = shuffle;
  for (std::size_t p = 0; p < pieces; ++p) {
    const auto piece = bytes.subspan(p * kPiece, std::min(kPiece, bytes.size() - p * kPiece));
    const std::string chunk = encodeBlosc2Chunk(piece, options);
    appendLe(out, piece.size(), 8);
    appendLe(out, chunk.size(), 8);
    out += chunk;
  }
  return out;
}

PackedArray unpackArray(std::string_view packed, const std::string& where, std::size_t maxBytes) {
  Reader r(packed, where);
  if (r.take(4, "magic") != "NNIA") {
    throw Error(ErrorKind::InvalidInput, where, "not a packed array (no NNIA magic)");
  }
  const auto version = r.le(1, "version");
  if (version != 1) {
    throw Error(ErrorKind::InvalidInput, where,
                "packed array version " + std::to_string(version) + " (1 is read)");
  }
  const auto codec = r.le(1, "codec");
  if (codec != 1 && codec != 2) {
    throw Error(ErrorKind::InvalidInput, where, "packed array codec " + std::to_string(codec));
  }
  const auto ndim = r.le(1, "dimension count");
  const auto nameLength = r.le(1, "dtype length");
  PackedArray a;
  try {
    a.dtype = npDtypeOf(r.take(nameLength, "dtype"));
  } catch (const Error& e) {
    throw Error(ErrorKind::InvalidInput, where, std::string("packed array of ") + e.what());
  }
  std::size_t total = itemSize(a.dtype);
  bool tooLarge = false;
  for (std::uint64_t i = 0; i < ndim; ++i) {
    const auto d = r.le(8, "shape");
    if (d > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      throw Error(ErrorKind::InvalidInput, where, "packed array with a negative dimension");
    }
    a.shape.push_back(static_cast<std::int64_t>(d));
    if (d != 0 && total > maxBytes / d) {
      tooLarge = true;  // decided once every dimension is read: a 0 makes it empty
    } else {
      total *= static_cast<std::size_t>(d);
    }
  }
  const bool empty = std::find(a.shape.begin(), a.shape.end(), 0) != a.shape.end();
  if (empty) {
    total = 0;
  } else if (tooLarge || total > maxBytes) {
    throw Error(ErrorKind::TooLarge, where,
                "packed array larger than " + std::to_string(maxBytes) + " bytes");
  }
  const auto nchunks = r.le(4, "chunk count");
  // First every chunk's sizes, so that nothing is allocated for a claim the input cannot back.
  struct Piece {
    std::size_t ulen;
    std::string_view chunk;
  };
  std::vector<Piece> pieces;
  std::size_t sum = 0;
  for (std::uint64_t c = 0; c < nchunks; ++c) {
    const auto ulen = r.le(8, "chunk size");
    const auto clen = r.le(8, "chunk size");
    if (ulen > total - sum) {
      throw Error(
          ErrorKind::InvalidInput, where,
          "packed array chunks hold more than its shape (" + std::to_string(total) + " bytes)");
    }
    if (clen > r.size() - r.position()) {
      throw Error(ErrorKind::InvalidInput, where,
                  "packed array ends inside chunk " + std::to_string(c));
    }
    pieces.push_back({static_cast<std::size_t>(ulen), r.take(clen, "chunk")});
    sum += ulen;
  }
  if (sum != total) {
    throw Error(ErrorKind::InvalidInput, where,
                "packed array chunks hold " + std::to_string(sum) + " bytes, its shape " +
                    std::to_string(total));
  }
  a.bytes.resize(total);
  std::size_t at = 0;
  for (const Piece& p : pieces) {
    const std::size_t claimed = blosc2UncompressedSize(p.chunk, where);
    if (claimed != p.ulen) {
      throw Error(ErrorKind::InvalidInput, where,
                  "Blosc2 chunk holds " + std::to_string(claimed) + " bytes, " +
                      std::to_string(p.ulen) + " announced");
    }
    decodeBlosc2Chunk(p.chunk, std::span(reinterpret_cast<std::byte*>(a.bytes.data()) + at, p.ulen),
                      where);
    at += p.ulen;
  }
  return a;
}

}  // namespace delineate::core::ai
