#include "core/model/ScalarType.h"

namespace delineate::core {

std::size_t scalarSize(ScalarType type) {
  return dispatchScalar(type, [](auto v) { return sizeof(v); });
}

std::string_view toString(ScalarType type) {
  switch (type) {
    case ScalarType::UInt8:
      return "uint8";
    case ScalarType::Int8:
      return "int8";
    case ScalarType::UInt16:
      return "uint16";
    case ScalarType::Int16:
      return "int16";
    case ScalarType::UInt32:
      return "uint32";
    case ScalarType::Int32:
      return "int32";
    case ScalarType::Float32:
      return "float32";
    case ScalarType::Float64:
      return "float64";
  }
  return "?";
}

}  // namespace delineate::core
