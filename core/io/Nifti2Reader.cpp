#include "core/io/Nifti2Reader.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/io/NiftiHeaderCheck.h"
#include "core/model/FrameSeries.h"

namespace delineate::core {

namespace {

constexpr std::size_t kHeaderSize = 540;

struct GzFile {
  gzFile f = nullptr;
  explicit GzFile(const std::filesystem::path& path) : f(gzopen(path.c_str(), "rb")) {}
  ~GzFile() {
    if (f) {
      gzclose(f);
    }
  }
  GzFile(const GzFile&) = delete;
  GzFile& operator=(const GzFile&) = delete;
};

class Header {
 public:
  Header(const unsigned char* bytes, bool swap) : bytes_(bytes), swap_(swap) {}
  template <class T>
  T get(std::size_t offset) const {
    std::array<unsigned char, sizeof(T)> b{};
    std::memcpy(b.data(), bytes_ + offset, sizeof(T));
    if (swap_) {
      std::reverse(b.begin(), b.end());
    }
    T v;
    std::memcpy(&v, b.data(), sizeof(T));
    return v;
  }

 private:
  const unsigned char* bytes_;
  bool swap_;
};

ScalarType scalarFor(std::int16_t datatype, const std::string& file) {
  switch (datatype) {
    case 2:
      return ScalarType::UInt8;
    case 4:
      return ScalarType::Int16;
    case 8:
      return ScalarType::Int32;
    case 16:
      return ScalarType::Float32;
    case 64:
      return ScalarType::Float64;
    case 256:
      return ScalarType::Int8;
    case 512:
      return ScalarType::UInt16;
    case 768:
      return ScalarType::UInt32;
    default:
      throw Error(ErrorKind::Unsupported, file,
                  "NIfTI-2 datatype " + std::to_string(datatype) +
                      " is not read (8, 16 and 32-bit integers and 32/64-bit floats are)");
  }
}

void swapBytes(unsigned char* data, std::size_t count, std::size_t size) {
  for (std::size_t i = 0; i < count; ++i) {
    std::reverse(data + i * size, data + (i + 1) * size);
  }
}

// The LPS grid from the header, as ITK reads NIfTI-1: sform if usable, else qform, else pixdim.
ImageGeometry gridFrom(const Header& h, const std::array<std::size_t, 3>& size) {
  ImageGeometry g;
  g.size = size;
  for (int a = 0; a < 3; ++a) {
    const double s = std::abs(h.get<double>(104 + 8 * (a + 1)));
    g.spacing[a] = s > 0 && std::isfinite(s) ? s : 1.0;
  }
  const int qformCode = h.get<std::int32_t>(344);
  const int sformCode = h.get<std::int32_t>(348);
  double m[3][4] = {};  // RAS, columns scaled by the spacing
  bool have = false;
  if (sformCode > 0) {
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 4; ++c) {
        m[r][c] = h.get<double>(400 + 32 * r + 8 * c);
      }
    }
    // Usable when its axes are orthogonal (ITK keeps only a rotation and the spacing).
    double cols[3][3];
    bool ok = true;
    for (int c = 0; c < 3; ++c) {
      const double n = std::sqrt(m[0][c] * m[0][c] + m[1][c] * m[1][c] + m[2][c] * m[2][c]);
      ok = ok && n > 0;
      for (int r = 0; r < 3; ++r) {
        cols[c][r] = n > 0 ? m[r][c] / n : 0;
      }
    }
    for (int a = 0; a < 3 && ok; ++a) {
      for (int b = a + 1; b < 3; ++b) {
        const double d =
            cols[a][0] * cols[b][0] + cols[a][1] * cols[b][1] + cols[a][2] * cols[b][2];
        ok = ok && std::abs(d) < 1e-4;
      }
    }
    have = ok;
  }
  if (!have && qformCode > 0) {
    const double b = h.get<double>(352), c = h.get<double>(360), d = h.get<double>(368);
    double a = 1.0 - (b * b + c * c + d * d);
    a = a > 0 ? std::sqrt(a) : 0.0;
    const double qfac = h.get<double>(104) < 0 ? -1.0 : 1.0;
    const double rot[3][3] = {
        {a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)},
        {2 * (b * c + a * d), a * a + c * c - b * b - d * d, 2 * (c * d - a * b)},
        {2 * (b * d - a * c), 2 * (c * d + a * b), a * a + d * d - c * c - b * b}};
    for (int r = 0; r < 3; ++r) {
      for (int col = 0; col < 3; ++col) {
        m[r][col] = rot[r][col] * g.spacing[col] * (col == 2 ? qfac : 1.0);
      }
      m[r][3] = h.get<double>(376 + 8 * r);
    }
    have = true;
  }
  if (!have) {
    for (int r = 0; r < 3; ++r) {
      m[r][r] = g.spacing[r];
    }
  }
  const double flip[3] = {-1, -1, 1};  // RAS to LPS
  for (int col = 0; col < 3; ++col) {
    const double n =
        std::sqrt(m[0][col] * m[0][col] + m[1][col] * m[1][col] + m[2][col] * m[2][col]);
    for (int r = 0; r < 3; ++r) {
      g.direction[3 * r + col] = n > 0 ? flip[r] * m[r][col] / n : (r == col ? 1.0 : 0.0);
    }
  }
  for (int r = 0; r < 3; ++r) {
    g.origin[r] = flip[r] * m[r][3];
  }
  return g;
}

}  // namespace

bool isNifti2File(const std::filesystem::path& path) {
  GzFile in(path);
  unsigned char head[4];
  if (!in.f || gzread(in.f, head, 4) != 4) {
    return false;
  }
  std::int32_t size = 0;
  std::memcpy(&size, head, 4);
  std::int32_t swapped = 0;
  std::reverse_copy(head, head + 4, reinterpret_cast<unsigned char*>(&swapped));
  return size == static_cast<std::int32_t>(kHeaderSize) ||
         swapped == static_cast<std::int32_t>(kHeaderSize);
}

VolumePtr readNifti2File(const std::filesystem::path& path, ProgressSink& progress) {
  const std::string file = path.string();
  GzFile in(path);
  if (!in.f) {
    throw Error(ErrorKind::Io, file, "cannot open");
  }
  unsigned char bytes[kHeaderSize];
  if (gzread(in.f, bytes, kHeaderSize) != static_cast<int>(kHeaderSize)) {
    throw Error(ErrorKind::InvalidInput, file, "truncated NIfTI-2 header");
  }
  std::int32_t size = 0;
  std::memcpy(&size, bytes, 4);
  const bool swap = size != static_cast<std::int32_t>(kHeaderSize);
  const Header h(bytes, swap);
  if (h.get<std::int32_t>(0) != static_cast<std::int32_t>(kHeaderSize) ||
      std::memcmp(bytes + 4, "n+2", 3) != 0) {
    throw Error(ErrorKind::InvalidInput, file,
                "not a single-file NIfTI-2 header (size 540 and magic \"n+2\")");
  }
  const ScalarType type = scalarFor(h.get<std::int16_t>(12), file);
  const std::int64_t dims = h.get<std::int64_t>(16);
  if (dims < 1 || dims > 7) {
    throw Error(ErrorKind::InvalidInput, file, "dim[0] is " + std::to_string(dims));
  }
  std::array<std::size_t, 7> dim{1, 1, 1, 1, 1, 1, 1};
  for (std::int64_t a = 0; a < dims; ++a) {
    const std::int64_t d = h.get<std::int64_t>(24 + 8 * static_cast<std::size_t>(a));
    if (d < 1 || d > (std::int64_t{1} << 31)) {
      throw Error(ErrorKind::InvalidInput, file,
                  "dim[" + std::to_string(a + 1) + "] is " + std::to_string(d));
    }
    dim[static_cast<std::size_t>(a)] = static_cast<std::size_t>(d);
  }
  for (std::size_t a = 4; a < 7; ++a) {
    if (dim[a] > 1) {
      throw Error(ErrorKind::Unsupported, file,
                  "a NIfTI-2 image of more than 4 dimensions (dim[" + std::to_string(a + 1) +
                      "] is " + std::to_string(dim[a]) + ")");
    }
  }
  const std::size_t frames = dim[3];
  ImageGeometry g = gridFrom(h, {dim[0], dim[1], dim[2]});
  const std::size_t frameVoxels = g.voxelCount();
  if (frameVoxels > std::numeric_limits<std::size_t>::max() / frames / scalarSize(type)) {
    throw Error(ErrorKind::TooLarge, file, "header sizes overflow");
  }
  const std::size_t count = frameVoxels * frames;
  const std::int64_t offset = h.get<std::int64_t>(168);
  if (offset < static_cast<std::int64_t>(kHeaderSize) || offset > (std::int64_t{1} << 30)) {
    throw Error(ErrorKind::InvalidInput, file, "vox_offset is " + std::to_string(offset));
  }
  // What the header claims must fit in the file (deflate packs at most ~1032:1) and in memory,
  // before anything is allocated.
  std::error_code ec;
  const auto fileBytes = static_cast<double>(std::filesystem::file_size(path, ec));
  const double needed = static_cast<double>(count) * static_cast<double>(scalarSize(type)) +
                        static_cast<double>(offset);
  const double holds = gzdirect(in.f) ? fileBytes : 1100.0 * fileBytes;
  if (ec || needed > holds) {
    throw Error(
        ErrorKind::InvalidInput, file,
        "header claims " + std::to_string(dim[0]) + "x" + std::to_string(dim[1]) + "x" +
            std::to_string(dim[2]) + (frames > 1 ? "x" + std::to_string(frames) : std::string()) +
            " voxels (" + std::to_string(static_cast<std::uint64_t>(needed) >> 20) +
            " MiB) but the file holds only " +
            std::to_string(static_cast<std::uint64_t>(fileBytes)) + " bytes: truncated or corrupt");
  }
  if (needed > 0.8 * static_cast<double>(physicalMemory())) {
    throw Error(ErrorKind::TooLarge, file,
                "the image needs " + std::to_string(static_cast<std::uint64_t>(needed) >> 20) +
                    " MiB, more than this machine's memory");
  }
  progress.report(0.05, "Reading voxels");
  if (gzseek(in.f, static_cast<z_off_t>(offset), SEEK_SET) != static_cast<z_off_t>(offset)) {
    throw Error(ErrorKind::InvalidInput, file, "truncated before its voxels");
  }
  auto voxels = std::make_shared<VoxelBuffer>(type, count);
  auto* out = static_cast<unsigned char*>(voxels->data());
  const std::size_t bytesWanted = voxels->bytes();
  std::size_t done = 0;
  while (done < bytesWanted) {
    progress.throwIfCancelled();
    const auto chunk = static_cast<unsigned>(std::min<std::size_t>(bytesWanted - done, 1u << 24));
    const int got = gzread(in.f, out + done, chunk);
    if (got <= 0) {
      throw Error(ErrorKind::InvalidInput, file,
                  "truncated: " + std::to_string(done) + " of " + std::to_string(bytesWanted) +
                      " voxel bytes");
    }
    done += static_cast<std::size_t>(got);
    progress.report(0.05 + 0.85 * double(done) / double(bytesWanted), "Reading voxels");
  }
  if (swap && scalarSize(type) > 1) {
    swapBytes(out, count, scalarSize(type));
  }
  // scl_slope / scl_inter: applied, into floats (as ITK and nibabel present them).
  const double slope = h.get<double>(176);
  const double inter = h.get<double>(184);
  if (std::isfinite(slope) && std::isfinite(inter) && slope != 0 && !(slope == 1 && inter == 0)) {
    auto scaled = std::make_shared<VoxelBuffer>(ScalarType::Float32, count);
    float* dst = scaled->as<float>();
    dispatchScalar(type, [&](auto t) {
      using T = decltype(t);
      const T* src = voxels->as<T>();
      for (std::size_t i = 0; i < count; ++i) {
        dst[i] = static_cast<float>(static_cast<double>(src[i]) * slope + inter);
      }
    });
    voxels = std::move(scaled);
  }
  progress.report(1.0, "Done");

  VolumeInfo info;
  info.modality = "OT";
  info.sourcePath = file;
  info.seriesDescription = path.filename().string();
  info.transferSyntax = "NIfTI-2";
  if (frames > 1) {
    FrameAxis axis = niftiFrameAxis(frames, h.get<double>(104 + 8 * 4), niftiTimeUnit(path));
    return FrameSeries::make(g, std::move(voxels), frames, std::move(axis), std::move(info))
        ->frame(0);
  }
  return std::make_shared<const Volume>(g, std::move(voxels), std::move(info));
}

}  // namespace delineate::core
