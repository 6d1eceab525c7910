#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace delineate::core {

// Voxel component types a Volume may hold; kept native so that no load converts or copies.
enum class ScalarType { UInt8, Int8, UInt16, Int16, UInt32, Int32, Float32, Float64 };

std::size_t scalarSize(ScalarType type);
std::string_view toString(ScalarType type);

template <class T>
constexpr ScalarType scalarTypeOf();
template <>
constexpr ScalarType scalarTypeOf<std::uint8_t>() {
  return ScalarType::UInt8;
}
template <>
constexpr ScalarType scalarTypeOf<std::int8_t>() {
  return ScalarType::Int8;
}
template <>
constexpr ScalarType scalarTypeOf<std::uint16_t>() {
  return ScalarType::UInt16;
}
template <>
constexpr ScalarType scalarTypeOf<std::int16_t>() {
  return ScalarType::Int16;
}
template <>
constexpr ScalarType scalarTypeOf<std::uint32_t>() {
  return ScalarType::UInt32;
}
template <>
constexpr ScalarType scalarTypeOf<std::int32_t>() {
  return ScalarType::Int32;
}
template <>
constexpr ScalarType scalarTypeOf<float>() {
  return ScalarType::Float32;
}
template <>
constexpr ScalarType scalarTypeOf<double>() {
  return ScalarType::Float64;
}

// Calls f(T{}) with T the C++ type of `type`.
template <class F>
decltype(auto) dispatchScalar(ScalarType type, F&& f) {
  switch (type) {
    case ScalarType::UInt8:
      return f(std::uint8_t{});
    case ScalarType::Int8:
      return f(std::int8_t{});
    case ScalarType::UInt16:
      return f(std::uint16_t{});
    case ScalarType::Int16:
      return f(std::int16_t{});
    case ScalarType::UInt32:
      return f(std::uint32_t{});
    case ScalarType::Int32:
      return f(std::int32_t{});
    case ScalarType::Float32:
      return f(float{});
    case ScalarType::Float64:
      break;
  }
  return f(double{});
}

}  // namespace delineate::core
