#include "core/model/ColourLuminance.h"

#include <type_traits>

#include "core/Error.h"

namespace delineate::core {

std::shared_ptr<VoxelBuffer> colourLuminanceOf(const VoxelBuffer& rgb) {
  const std::size_t n = rgb.count() / 3;
  auto out = std::make_shared<VoxelBuffer>(rgb.type(), n);
  dispatchScalar(rgb.type(), [&](auto t) {
    using T = decltype(t);
    if constexpr (std::is_floating_point_v<T> || std::is_signed_v<T>) {
      throw Error(ErrorKind::Internal, {}, "colour channels of a signed or float type");
    } else {
      const T* in = rgb.as<T>();
      T* lum = out->as<T>();
      for (std::size_t i = 0; i < n; ++i) {
        lum[i] = static_cast<T>(colourLuminance(in[3 * i], in[3 * i + 1], in[3 * i + 2]));
      }
    }
  });
  return out;
}

}  // namespace delineate::core
