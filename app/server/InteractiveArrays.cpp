#include "app/server/InteractiveArrays.h"

#include <cmath>
#include <cstring>
#include <span>

namespace delineate::server {

using core::ai::NpDtype;

namespace {

float halfToFloat(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  std::uint32_t bits = 0;
  if (exponent == 0) {
    const float v = std::ldexp(static_cast<float>(mantissa), -24);
    return (sign != 0) ? -v : v;
  }
  if (exponent == 31) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}

template <class T>
void toFloat(const std::string& bytes, std::size_t count, float* out) {
  for (std::size_t n = 0; n < count; ++n) {
    T v;
    std::memcpy(&v, bytes.data() + n * sizeof(T), sizeof(T));
    out[n] = static_cast<float>(v);
  }
}

// Channel 0 of the uploaded array as float32 voxels.
}  // namespace

void channelZeroAsFloat(const core::ai::PackedArray& a, std::size_t count, float* out) {
  switch (a.dtype) {
    case NpDtype::Bool:
    case NpDtype::UInt8:
      return toFloat<std::uint8_t>(a.bytes, count, out);
    case NpDtype::Int8:
      return toFloat<std::int8_t>(a.bytes, count, out);
    case NpDtype::UInt16:
      return toFloat<std::uint16_t>(a.bytes, count, out);
    case NpDtype::Int16:
      return toFloat<std::int16_t>(a.bytes, count, out);
    case NpDtype::UInt32:
      return toFloat<std::uint32_t>(a.bytes, count, out);
    case NpDtype::Int32:
      return toFloat<std::int32_t>(a.bytes, count, out);
    case NpDtype::Int64:
      return toFloat<std::int64_t>(a.bytes, count, out);
    case NpDtype::UInt64:
      return toFloat<std::uint64_t>(a.bytes, count, out);
    case NpDtype::Float32:
      return toFloat<float>(a.bytes, count, out);
    case NpDtype::Float64:
      return toFloat<double>(a.bytes, count, out);
    case NpDtype::Float16:
      for (std::size_t n = 0; n < count; ++n) {
        std::uint16_t h;
        std::memcpy(&h, a.bytes.data() + 2 * n, 2);
        out[n] = halfToFloat(h);
      }
      return;
  }
}

std::string packBufferRegion(const std::vector<std::uint8_t>& buffer, const core::Size3& size,
                             const core::VoxelBox& box, NpDtype dtype) {
  const std::size_t item = core::ai::itemSize(dtype);
  std::string bytes(box.count() * item, '\0');
  std::size_t n = 0;
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i, ++n) {
        // Little-endian: the value 0 or 1 is the element's first byte.
        bytes[n * item] = static_cast<char>(buffer[i + size[0] * (j + size[1] * k)]);
      }
    }
  }
  const std::vector<std::int64_t> shape{static_cast<std::int64_t>(box.hi[2] - box.lo[2]),
                                        static_cast<std::int64_t>(box.hi[1] - box.lo[1]),
                                        static_cast<std::int64_t>(box.hi[0] - box.lo[0])};
  return core::ai::packArray(
      dtype, shape, std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
}

core::VoxelBox differingBox(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                            const core::Size3& size) {
  core::VoxelBox out;
  for (std::size_t n = 0; n < a.size() && n < b.size(); ++n) {
    if (a[n] != b[n]) {
      out.include(n % size[0], (n / size[0]) % size[1], n / (size[0] * size[1]));
    }
  }
  return out;
}

}  // namespace delineate::server
