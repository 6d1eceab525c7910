#include "core/io/NiftiHeaderCheck.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>

#include "core/Error.h"
#include "core/Text.h"

namespace delineate::core {

namespace {

constexpr std::size_t kNifti1Size = 348;
constexpr std::size_t kNifti2Size = 540;

// Reads up to n bytes of the (possibly gzip-compressed) file.
std::string readPrefix(const std::filesystem::path& path, bool gz, std::size_t n) {
  std::string out(n, '\0');
  if (gz) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (f == nullptr) {
      return {};
    }
    const int got = gzread(f, out.data(), static_cast<unsigned>(n));
    gzclose(f);
    out.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    return out;
  }
  std::ifstream in(path, std::ios::binary);
  in.read(out.data(), static_cast<std::streamsize>(n));
  out.resize(static_cast<std::size_t>(in.gcount()));
  return out;
}

template <class T>
T field(const std::string& h, std::size_t offset, bool swap) {
  std::array<unsigned char, sizeof(T)> b{};
  std::memcpy(b.data(), h.data() + offset, sizeof(T));
  if (swap) {
    std::reverse(b.begin(), b.end());
  }
  T v;
  std::memcpy(&v, b.data(), sizeof(T));
  return v;
}

std::string compact(double v) {
  std::ostringstream out;
  out << std::setprecision(3) << v;
  return out.str();
}

// Offsets of the geometry fields: pixdim[8], quatern_b..qoffset_z (6), srow_x/y/z (12).
template <class Real>
void checkFields(const std::string& h, bool swap, std::size_t pixdim, std::size_t quatern,
                 std::size_t srow, const std::string& file) {
  // `limit`: the largest magnitude the field may hold; 0: any finite value.
  auto finite = [&](std::size_t offset, int first, int count, const char* name, double limit) {
    for (int i = first; i < first + count; ++i) {
      const double v = field<Real>(h, offset + i * sizeof(Real), swap);
      if (!std::isfinite(v)) {
        throw Error(ErrorKind::InvalidInput, file,
                    std::string("NIfTI header field ") + name + "[" + std::to_string(i) +
                        "] is not a finite number");
      }
      if (limit > 0 && std::abs(v) > limit) {
        throw Error(ErrorKind::InvalidInput, file,
                    std::string("NIfTI header field ") + name + "[" + std::to_string(i) + "] is " +
                        compact(v) + ", not a plausible size or position");
      }
    }
  };
  // Sizes and positions over a kilometre are no image of a body. ITK's orientation code (an SVD
  // in single precision) loops for ever on such values (found by NiftiLoaderFuzzer: a sform
  // entry of -1.7e38).
  constexpr double kMaxMm = 1e6;
  finite(pixdim, 0, 1, "pixdim", 0);
  finite(pixdim, 1, 3, "pixdim", kMaxMm);
  finite(pixdim, 4, 4, "pixdim", 0);
  finite(quatern, 0, 6, "quatern/qoffset", kMaxMm);
  finite(srow, 0, 12, "srow", kMaxMm);
}

}  // namespace

void checkNiftiHeader(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const bool gz = endsWith(name, ".nii.gz");
  if (!gz && !endsWith(name, ".nii")) {
    return;
  }
  const std::string h = readPrefix(path, gz, kNifti2Size);
  if (h.size() < 4) {
    return;
  }
  const std::string file = path.string();
  // NIfTI-2 by its size field (either byte order) or its magic; anything else of NIfTI-1 size is
  // checked as NIfTI-1 whatever its size field says (the NIfTI library is lenient about it).
  const auto size = field<std::int32_t>(h, 0, false);
  const auto swapped = field<std::int32_t>(h, 0, true);
  const bool nifti2Magic = h.size() >= 8 && (h.compare(4, 4, std::string("n+2\0", 4)) == 0 ||
                                             h.compare(4, 4, std::string("ni2\0", 4)) == 0);
  if ((size == kNifti2Size || swapped == kNifti2Size || nifti2Magic) && h.size() >= kNifti2Size) {
    const auto dim0 = field<std::int64_t>(h, 16, false);
    checkFields<double>(h, dim0 < 0 || dim0 > 7, 104, 352, 400, file);
  } else if (h.size() >= kNifti1Size) {
    // The NIfTI library decides the byte order from dim[0] (1..7 when native).
    const auto dim0 = field<std::int16_t>(h, 40, false);
    checkFields<float>(h, dim0 < 0 || dim0 > 7, 76, 256, 280, file);
  }
}

std::string niftiTimeUnit(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const bool gz = endsWith(name, ".nii.gz");
  if (!gz && !endsWith(name, ".nii")) {
    return {};
  }
  const std::string h = readPrefix(path, gz, kNifti2Size);
  if (h.size() < kNifti1Size) {
    return {};
  }
  const auto size = field<std::int32_t>(h, 0, false);
  const auto swapped = field<std::int32_t>(h, 0, true);
  int units = 0;
  if ((size == kNifti2Size || swapped == kNifti2Size) && h.size() >= kNifti2Size) {
    units = field<std::int32_t>(h, 500, swapped == kNifti2Size);
  } else {
    units = static_cast<unsigned char>(h[123]);
  }
  switch (units & 0x38) {  // NIFTI_UNITS_SEC 8, _MSEC 16, _USEC 24
    case 8:
      return "s";
    case 16:
      return "ms";
    case 24:
      return "us";
    default:
      return {};
  }
}

FrameAxis niftiFrameAxis(std::size_t frames, double step, const std::string& unit) {
  FrameAxis axis;
  const double toSeconds = unit == "s" ? 1.0 : unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : 0.0;
  if (toSeconds > 0 && step > 0 && std::isfinite(step)) {
    axis.name = "time";
    axis.unit = "s";
    for (std::size_t f = 0; f < frames; ++f) {
      axis.values.push_back(static_cast<double>(f) * step * toSeconds);
    }
  }
  return axis;
}

}  // namespace delineate::core
