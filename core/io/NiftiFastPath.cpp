#include "core/io/NiftiFastPath.h"

#include <cstdint>
#include <cstring>

namespace delineate::core {

namespace {

// NIfTI-1 datatype codes of the scalar types we keep natively.
int niftiDatatype(ScalarType t) {
  switch (t) {
    case ScalarType::UInt8:
      return 2;
    case ScalarType::Int16:
      return 4;
    case ScalarType::Int32:
      return 8;
    case ScalarType::Float32:
      return 16;
    case ScalarType::Float64:
      return 64;
    case ScalarType::Int8:
      return 256;
    case ScalarType::UInt16:
      return 512;
    case ScalarType::UInt32:
      return 768;
  }
  return -1;
}

template <class T>
T readField(const unsigned char* header, std::size_t offset) {
  T v;
  std::memcpy(&v, header + offset, sizeof(T));
  return v;
}

}  // namespace

std::optional<std::size_t> niftiFastPathOffset(const unsigned char* header, ScalarType type) {
  if (readField<std::int32_t>(header, 0) != static_cast<std::int32_t>(kNifti1HeaderBytes) ||
      readField<std::int16_t>(header, 70) != niftiDatatype(type)) {
    return std::nullopt;  // NIfTI-2, swapped byte order, or a type ITK converts
  }
  const float slope = readField<float>(header, 112);
  const float inter = readField<float>(header, 116);
  if (!(slope == 0.0f || slope == 1.0f) || inter != 0.0f) {
    return std::nullopt;
  }
  const float voxOffset = readField<float>(header, 108);
  if (!(voxOffset >= static_cast<float>(kNifti1HeaderBytes)) || voxOffset > 1e8f) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(voxOffset);
}

}  // namespace delineate::core
