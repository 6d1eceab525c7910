#include "core/ai/NiftiLabelBytes.h"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>

#include "core/Error.h"

namespace delineate::core::ai {

namespace {

constexpr std::size_t kHeaderSize = 348;
constexpr std::size_t kChunk = 64 * 1024;  // stays in the cache between inflating and widening

template <class T>
T field(const unsigned char* h, std::size_t offset) {
  T v;
  std::memcpy(&v, h + offset, sizeof v);
  return v;
}

// Where the bytes come from: gzip through ISA-L's inflater, or the plain bytes.
class ByteSource {
 public:
  ByteSource(const std::string& bytes, const std::string& server) : server_(server) {
    gz_ = bytes.size() > 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
          static_cast<unsigned char>(bytes[1]) == 0x8b;
    in_ = reinterpret_cast<const unsigned char*>(bytes.data());
    left_ = bytes.size();
    if (gz_) {
      isal_inflate_init(&state_);
      state_.crc_flag = ISAL_GZIP;
      state_.next_in = const_cast<unsigned char*>(in_);
      state_.avail_in = static_cast<std::uint32_t>(std::min<std::size_t>(left_, UINT32_MAX));
    }
  }

  // Fills out[0, n) or throws naming the server (the answer ended early or is corrupt).
  void read(unsigned char* out, std::size_t n) {
    if (n == 0) {
      return;  // (memcpy with a null pointer is undefined even for no bytes)
    }
    if (!gz_) {
      if (n > left_) {
        ended();
      }
      std::memcpy(out, in_, n);
      in_ += n;
      left_ -= n;
      return;
    }
    state_.next_out = out;
    state_.avail_out = static_cast<std::uint32_t>(n);
    int stalls = 0;
    while (state_.avail_out > 0) {
      const std::uint32_t before = state_.avail_out;
      const int rc = isal_inflate(&state_);
      if (rc != ISAL_DECOMP_OK && rc != ISAL_END_INPUT && rc != ISAL_OUT_OVERFLOW) {
        throw Error(ErrorKind::InvalidInput, server_, "the returned label is corrupt gzip data");
      }
      if (state_.avail_out == before &&
          (state_.block_state == ISAL_BLOCK_FINISH || state_.avail_in == 0 || ++stalls > 3)) {
        ended();
      }
    }
  }
  bool gz() const { return gz_; }

 private:
  [[noreturn]] void ended() const {
    throw Error(ErrorKind::InvalidInput, server_,
                "the returned label ends before its last voxel (truncated answer)");
  }

  const std::string& server_;
  bool gz_ = false;
  const unsigned char* in_ = nullptr;
  std::size_t left_ = 0;
  inflate_state state_{};
};

using Mat4 = std::array<double, 12>;  // rows 0..2 of a 4x4 affine (RAS), row-major

// The NIfTI qform (quaternion, offsets, pixdim, qfac) as an affine (NIfTI-1 standard, method 2).
Mat4 qformAffine(const unsigned char* h) {
  const double b = field<float>(h, 256), c = field<float>(h, 260), d = field<float>(h, 264);
  const double qx = field<float>(h, 268), qy = field<float>(h, 272), qz = field<float>(h, 276);
  double qfac = field<float>(h, 76);  // pixdim[0]
  qfac = qfac < 0 ? -1 : 1;
  const double dx = field<float>(h, 80), dy = field<float>(h, 84), dz = field<float>(h, 88) * qfac;
  double a = 1.0 - (b * b + c * c + d * d);
  a = a < 1e-7 ? 0 : std::sqrt(a);
  const double r[9] = {
      a * a + b * b - c * c - d * d, 2 * (b * c - a * d),           2 * (b * d + a * c),
      2 * (b * c + a * d),           a * a + c * c - b * b - d * d, 2 * (c * d - a * b),
      2 * (b * d - a * c),           2 * (c * d + a * b),           a * a + d * d - c * c - b * b};
  return {r[0] * dx, r[1] * dy, r[2] * dz, qx,        r[3] * dx, r[4] * dy,
          r[5] * dz, qy,        r[6] * dx, r[7] * dy, r[8] * dz, qz};
}

Mat4 sformAffine(const unsigned char* h) {
  Mat4 m;
  for (int i = 0; i < 12; ++i) {
    m[std::size_t(i)] = field<float>(h, 280 + 4 * std::size_t(i));
  }
  return m;
}

// The grid an affine (RAS, NIfTI's world) describes, in LPS as the rest of the program keeps it.
ImageGeometry gridOf(const Mat4& m, const Size3& size) {
  ImageGeometry g;
  g.size = size;
  const double flip[3] = {-1, -1, 1};
  for (int axis = 0; axis < 3; ++axis) {
    double n = 0;
    for (int row = 0; row < 3; ++row) {
      n += m[std::size_t(row * 4 + axis)] * m[std::size_t(row * 4 + axis)];
    }
    g.spacing[std::size_t(axis)] = std::sqrt(n);
    for (int row = 0; row < 3; ++row) {
      g.direction[std::size_t(row * 3 + axis)] =
          n > 0 ? flip[row] * m[std::size_t(row * 4 + axis)] / std::sqrt(n) : 0;
    }
  }
  for (int row = 0; row < 3; ++row) {
    g.origin[std::size_t(row)] = flip[row] * m[std::size_t(row * 4 + 3)];
  }
  return g;
}

// Whether the header holds 3D integer labels of a type read here, stored at `grid`, unscaled.
std::optional<int> readableType(const unsigned char* h, const ImageGeometry& grid) {
  if (field<std::int32_t>(h, 0) != static_cast<std::int32_t>(kHeaderSize) ||
      std::memcmp(h + 344, "n+1", 4) != 0) {
    return std::nullopt;  // NIfTI-2, the other byte order, a .hdr/.img pair
  }
  const auto dims = field<std::int16_t>(h, 40);
  if (dims < 3 || dims > 7) {
    return std::nullopt;
  }
  for (int i = 1; i <= 7; ++i) {
    const auto d = field<std::int16_t>(h, 40 + 2 * std::size_t(i));
    const std::size_t want = i <= 3 ? grid.size[std::size_t(i - 1)] : 1;
    if (i <= dims && std::size_t(std::max<std::int16_t>(d, 0)) != want) {
      return std::nullopt;
    }
  }
  const float slope = field<float>(h, 112), inter = field<float>(h, 116);
  if (!(slope == 0.0f || slope == 1.0f) || inter != 0.0f) {
    return std::nullopt;
  }
  const int type = field<std::int16_t>(h, 70);
  if (type != 2 && type != 256 && type != 512 && type != 4) {  // uint8 int8 uint16 int16
    return std::nullopt;
  }
  // Every transform the file states must give the grid (ITK picks one of them).
  const auto qcode = field<std::int16_t>(h, 252), scode = field<std::int16_t>(h, 254);
  if (qcode <= 0 && scode <= 0) {
    return std::nullopt;
  }
  if (qcode > 0 && !gridOf(qformAffine(h), grid.size).sameGrid(grid)) {
    return std::nullopt;
  }
  if (scode > 0 && !gridOf(sformAffine(h), grid.size).sameGrid(grid)) {
    return std::nullopt;
  }
  for (int a = 0; a < 3; ++a) {
    const double p = field<float>(h, 80 + 4 * std::size_t(a));
    if (std::abs(p - grid.spacing[std::size_t(a)]) > 1e-4 * std::max(1.0, p)) {
      return std::nullopt;
    }
  }
  return type;
}

[[noreturn]] void notALabel(const std::string& server, long value) {
  throw Error(ErrorKind::InvalidInput, server,
              "the returned label holds a value that is no label (" + std::to_string(value) + ")");
}

// Widens `count` values to uint16 and says whether one was negative. In blocks of a fixed length,
// which GCC's -O2 vectorises (it leaves loops of unknown length scalar).
template <class T>
bool widenBlock(const T* in, std::uint16_t* out, std::size_t count) {
  constexpr std::size_t kBlock = 256;
  bool negative = false;
  std::size_t i = 0;
  for (; i + kBlock <= count; i += kBlock) {
    T lo = 0;
    for (std::size_t b = 0; b < kBlock; ++b) {
      out[i + b] = static_cast<std::uint16_t>(in[i + b]);
      if constexpr (std::is_signed_v<T>) {
        lo = std::min(lo, in[i + b]);
      }
    }
    negative |= lo != 0;
  }
  for (; i < count; ++i) {
    out[i] = static_cast<std::uint16_t>(in[i]);
    if constexpr (std::is_signed_v<T>) {
      negative |= in[i] < 0;
    }
  }
  return negative;
}

// Reads n voxels of T in chunks and widens them to uint16, refusing negative values.
template <class T>
void widen(ByteSource& source, std::uint16_t* out, std::size_t n, const std::string& server,
           ProgressSink& progress) {
  std::array<T, kChunk / sizeof(T)> chunk;
  for (std::size_t done = 0; done < n;) {
    const std::size_t count = std::min(chunk.size(), n - done);
    source.read(reinterpret_cast<unsigned char*>(chunk.data()), count * sizeof(T));
    if (widenBlock(chunk.data(), out + done, count)) {
      notALabel(server, *std::min_element(chunk.begin(), chunk.begin() + std::ptrdiff_t(count)));
    }
    done += count;
    if ((done & ((std::size_t(1) << 22) - 1)) < count) {
      progress.throwIfCancelled();
    }
  }
}

}  // namespace

std::shared_ptr<LabelMap> labelMapFromNiftiBytes(
    const std::string& bytes, const ImageGeometry& grid, const std::string& mapName,
    std::vector<Segment> segments, const std::string& server, ProgressSink& progress) {
  ByteSource source(bytes, server);
  unsigned char header[kHeaderSize + 4];
  try {
    source.read(header, sizeof header);
  } catch (const Error&) {
    return nullptr;  // too short even for a header: the general path names what it is
  }
  const std::optional<int> type = readableType(header, grid);
  const float voxOffset = field<float>(header, 108);
  if (!type || !(voxOffset >= float(sizeof header)) || voxOffset > 1e6f) {
    return nullptr;
  }
  std::vector<unsigned char> extensions(std::size_t(voxOffset) - sizeof header);
  source.read(extensions.data(), extensions.size());

  const std::size_t n = grid.voxelCount();
  // Uninitialised: every voxel is written below (a zeroed buffer would cost a pass of its own).
  std::shared_ptr<std::uint16_t[]> memory(new std::uint16_t[n]);
  std::uint16_t* out = memory.get();
  switch (*type) {
    case 2:
      widen<std::uint8_t>(source, out, n, server, progress);
      break;
    case 256:
      widen<std::int8_t>(source, out, n, server, progress);
      break;
    case 4:
      widen<std::int16_t>(source, out, n, server, progress);
      break;
    default:  // uint16: every value is a label
      source.read(reinterpret_cast<unsigned char*>(out), n * sizeof(std::uint16_t));
  }
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, n, out,
                                              std::shared_ptr<void>(memory, memory.get()));
  return std::make_shared<LabelMap>(mapName, grid, std::move(voxels), std::move(segments));
}

}  // namespace delineate::core::ai
