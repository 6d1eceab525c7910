#include "core/io/DicomModalityLut.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/Error.h"

namespace delineate::core {

namespace {

template <class S, class T>
void mapAll(const S* in, T* out, std::size_t n, const DicomFileHeader::ModalityLut& lut) {
  const auto last = static_cast<std::int64_t>(lut.table.size()) - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t k =
        std::clamp<std::int64_t>(static_cast<std::int64_t>(in[i]) - lut.first, 0, last);
    out[i] = static_cast<T>(lut.table[static_cast<std::size_t>(k)]);
  }
}

}  // namespace

std::shared_ptr<VoxelBuffer> applyModalityLut(const VoxelBuffer& stored,
                                              const DicomFileHeader::ModalityLut& lut) {
  if (lut.table.empty()) {
    throw Error(ErrorKind::Internal, {}, "empty Modality LUT");
  }
  const ScalarType outType = lut.bits <= 8 ? ScalarType::UInt8 : ScalarType::UInt16;
  auto out = std::make_shared<VoxelBuffer>(outType, stored.count());
  dispatchScalar(stored.type(), [&](auto s) {
    using S = decltype(s);
    if constexpr (std::is_floating_point_v<S>) {
      throw Error(ErrorKind::Internal, {}, "a Modality LUT on floating-point samples");
    } else {
      const S* in = static_cast<const S*>(stored.data());
      if (outType == ScalarType::UInt8) {
        mapAll(in, out->as<std::uint8_t>(), stored.count(), lut);
      } else {
        mapAll(in, out->as<std::uint16_t>(), stored.count(), lut);
      }
    }
  });
  return out;
}

}  // namespace delineate::core
