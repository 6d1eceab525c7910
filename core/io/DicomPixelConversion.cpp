#include "core/io/DicomPixelConversion.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/Error.h"

namespace delineate::core {

namespace {

constexpr double kInt16Min = std::numeric_limits<std::int16_t>::min();
constexpr double kInt16Max = std::numeric_limits<std::int16_t>::max();

bool integral(double v) {
  return std::floor(v) == v && std::abs(v) < 2147483647.0;
}

// Stored value of one sample: masks the BitsStored field out of BitsAllocated and sign-extends.
struct Normalizer {
  bool trivial = true;
  unsigned shift = 0;
  std::uint64_t mask = 0;
  unsigned bits = 16;
  bool sign = false;

  explicit Normalizer(const DicomSampleFormat& f)
      : trivial(f.bitsStored == f.bitsAllocated && f.highBit + 1 == f.bitsAllocated),
        shift(f.highBit + 1 - f.bitsStored),
        mask(f.bitsStored >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << f.bitsStored) - 1),
        bits(f.bitsStored),
        sign(f.pixelSigned) {}

  template <class S>
  std::int64_t operator()(S s) const {
    if (trivial) {
      return static_cast<std::int64_t>(s);
    }
    using U = std::make_unsigned_t<S>;
    const std::uint64_t v = (static_cast<std::uint64_t>(static_cast<U>(s)) >> shift) & mask;
    if (sign && ((v >> (bits - 1)) & 1u)) {
      return static_cast<std::int64_t>(v) - (std::int64_t{1} << bits);
    }
    return static_cast<std::int64_t>(v);
  }
};

template <class T>
T toVoxel(std::int64_t stored, const Rescale& r, std::int64_t islope, std::int64_t iintercept,
          bool integerRescale) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<double>(stored) * r.slope + r.intercept);
  } else {
    std::int64_t v = integerRescale
                         ? stored * islope + iintercept
                         : std::llround(static_cast<double>(stored) * r.slope + r.intercept);
    v = std::clamp<std::int64_t>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    return static_cast<T>(v);
  }
}

template <class S, class T>
std::pair<std::int64_t, std::int64_t> convertTyped(const void* srcV, void* dstV, std::size_t n,
                                                   const Normalizer& norm, const Rescale& r,
                                                   bool wantRange) {
  const auto* src = static_cast<const unsigned char*>(srcV);
  auto* dst = static_cast<unsigned char*>(dstV);
  std::int64_t lo = std::numeric_limits<std::int64_t>::max();
  std::int64_t hi = std::numeric_limits<std::int64_t>::min();
  if (n == 0) {
    return {0, 0};
  }
  const bool integerRescale = integral(r.slope) && integral(r.intercept);
  const auto islope = static_cast<std::int64_t>(r.slope);
  const auto iintercept = static_cast<std::int64_t>(r.intercept);
  // Same type, nothing to change: only find the range.
  if constexpr (std::is_same_v<S, T>) {
    if (norm.trivial && r.identity()) {
      if (src != dst) {
        std::memcpy(dst, src, n * sizeof(S));
      }
      if (!wantRange) {
        return {0, 0};
      }
      const S* p = reinterpret_cast<const S*>(dst);
      const auto [mn, mx] = std::minmax_element(p, p + n);
      return {static_cast<std::int64_t>(*mn), static_cast<std::int64_t>(*mx)};
    }
  }
  auto one = [&](std::size_t i) {
    S s;
    std::memcpy(&s, src + i * sizeof(S), sizeof(S));
    const std::int64_t v = norm(s);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    const T t = toVoxel<T>(v, r, islope, iintercept, integerRescale);
    std::memcpy(dst + i * sizeof(T), &t, sizeof(T));
  };
  if (sizeof(T) > sizeof(S)) {
    for (std::size_t i = n; i-- > 0;) {  // widening in place: back to front
      one(i);
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      one(i);
    }
  }
  return {lo, hi};
}

std::pair<std::int64_t, std::int64_t> convertAny(const void* src, void* dst, std::size_t n,
                                                 ScalarType from, ScalarType to,
                                                 const Normalizer& norm, const Rescale& r,
                                                 bool wantRange = false) {
  return dispatchScalar(from, [&](auto s) {
    using S = decltype(s);
    if constexpr (std::is_floating_point_v<S>) {
      throw Error(ErrorKind::Internal, {}, "floating-point stored samples");
      return std::pair<std::int64_t, std::int64_t>{};
    } else {
      return dispatchScalar(to, [&](auto t) {
        using T = decltype(t);
        return convertTyped<S, T>(src, dst, n, norm, r, wantRange);
      });
    }
  });
}

}  // namespace

ScalarType DicomSampleFormat::storedType() const {
  switch (bitsAllocated) {
    case 8:
      return pixelSigned ? ScalarType::Int8 : ScalarType::UInt8;
    case 16:
      return pixelSigned ? ScalarType::Int16 : ScalarType::UInt16;
    default:
      return pixelSigned ? ScalarType::Int32 : ScalarType::UInt32;
  }
}

std::pair<std::int64_t, std::int64_t> DicomSampleFormat::storedRange() const {
  if (pixelSigned) {
    return {-(std::int64_t{1} << (bitsStored - 1)), (std::int64_t{1} << (bitsStored - 1)) - 1};
  }
  return {0, (std::int64_t{1} << bitsStored) - 1};
}

void validateSampleFormat(const DicomSampleFormat& f, const std::string& file) {
  if (f.bitsAllocated != 8 && f.bitsAllocated != 16 && f.bitsAllocated != 32) {
    throw Error(ErrorKind::Unsupported, file,
                "BitsAllocated " + std::to_string(f.bitsAllocated) +
                    " is not supported (8, 16 and 32 are)");
  }
  if (f.bitsStored == 0 || f.bitsStored > f.bitsAllocated || f.highBit >= f.bitsAllocated ||
      f.highBit + 1 < f.bitsStored) {
    throw Error(ErrorKind::InvalidInput, file,
                "inconsistent BitsAllocated/BitsStored/HighBit (" +
                    std::to_string(f.bitsAllocated) + "/" + std::to_string(f.bitsStored) + "/" +
                    std::to_string(f.highBit) + ")");
  }
}

DicomPixelPlan planDicomPixels(const DicomSampleFormat& f, const std::vector<Rescale>& slices) {
  const bool allIdentity =
      std::all_of(slices.begin(), slices.end(), [](const Rescale& r) { return r.identity(); });
  const bool allIntegral = std::all_of(slices.begin(), slices.end(), [](const Rescale& r) {
    return integral(r.slope) && integral(r.intercept);
  });
  DicomPixelPlan plan;
  if (allIdentity && f.bitsAllocated != 16) {
    plan.slotType = f.storedType();  // 8-bit and 32-bit data keep their type
    return plan;
  }
  if (!allIntegral) {
    plan.slotType = ScalarType::Float32;
    return plan;
  }
  const auto [smin, smax] = f.storedRange();
  double lo = std::numeric_limits<double>::max();
  double hi = std::numeric_limits<double>::lowest();
  for (const Rescale& r : slices) {
    const double a = static_cast<double>(smin) * r.slope + r.intercept;
    const double b = static_cast<double>(smax) * r.slope + r.intercept;
    lo = std::min({lo, a, b});
    hi = std::max({hi, a, b});
  }
  if (lo >= kInt16Min && hi <= kInt16Max) {
    plan.slotType = ScalarType::Int16;
  } else if (f.bitsAllocated == 16) {
    plan.slotType = f.storedType();
    plan.deferred = true;
  } else {
    plan.slotType = ScalarType::Float32;
  }
  return plan;
}

std::pair<std::int64_t, std::int64_t> convertDicomSlice(const void* src, void* dst,
                                                        std::size_t count,
                                                        const DicomSampleFormat& format,
                                                        const DicomPixelPlan& plan,
                                                        const Rescale& rescale) {
  const Normalizer norm(format);
  if (plan.deferred) {
    // Keep normalised stored values; the rescale comes in finalizeDicomPixels.
    return convertAny(src, dst, count, format.storedType(), plan.slotType, norm, Rescale{}, true);
  }
  return convertAny(src, dst, count, format.storedType(), plan.slotType, norm, rescale);
}

std::shared_ptr<VoxelBuffer> finalizeDicomPixels(
    std::shared_ptr<VoxelBuffer> buffer, const DicomSampleFormat& format,
    const DicomPixelPlan& plan, const std::vector<Rescale>& slices,
    const std::vector<std::pair<std::int64_t, std::int64_t>>& storedRanges,
    std::size_t sliceVoxels) {
  if (!plan.deferred) {
    return buffer;
  }
  bool allIdentity = true;
  double lo = std::numeric_limits<double>::max();
  double hi = std::numeric_limits<double>::lowest();
  for (std::size_t k = 0; k < slices.size(); ++k) {
    const Rescale& r = slices[k];
    allIdentity = allIdentity && r.identity();
    const double a = static_cast<double>(storedRanges[k].first) * r.slope + r.intercept;
    const double b = static_cast<double>(storedRanges[k].second) * r.slope + r.intercept;
    lo = std::min({lo, a, b});
    hi = std::max({hi, a, b});
  }
  // The slots hold normalised values now: no more masking.
  DicomSampleFormat normalised = format;
  normalised.bitsStored = format.bitsAllocated;
  normalised.highBit = format.bitsAllocated - 1;
  const Normalizer norm(normalised);
  const ScalarType from = plan.slotType;
  const std::size_t elem = scalarSize(from);
  auto* base = static_cast<unsigned char*>(buffer->data());

  if (lo >= kInt16Min && hi <= kInt16Max) {
    for (std::size_t k = 0; k < slices.size(); ++k) {
      void* slot = base + k * sliceVoxels * elem;
      convertAny(slot, slot, sliceVoxels, from, ScalarType::Int16, norm, slices[k]);
    }
    const std::size_t count = buffer->count();
    void* data = buffer->data();
    return std::make_shared<VoxelBuffer>(ScalarType::Int16, count, data, std::move(buffer));
  }
  if (allIdentity && !format.pixelSigned) {
    return buffer;  // unsigned values above 32767 without rescale: UInt16 as stored
  }
  auto out = std::make_shared<VoxelBuffer>(ScalarType::Float32, buffer->count());
  auto* dst = static_cast<unsigned char*>(out->data());
  for (std::size_t k = 0; k < slices.size(); ++k) {
    convertAny(base + k * sliceVoxels * elem, dst + k * sliceVoxels * sizeof(float), sliceVoxels,
               from, ScalarType::Float32, norm, slices[k]);
  }
  return out;
}

}  // namespace delineate::core
