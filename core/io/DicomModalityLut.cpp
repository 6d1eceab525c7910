#include "core/io/DicomModalityLut.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcitem.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
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

void readModalityLut(DcmItem& ds, DicomFileHeader& h) {
  DcmItem* item = nullptr;
  if (ds.findAndGetSequenceItem(DCM_ModalityLUTSequence, item, 0).bad()) {
    item = nullptr;
  }
  auto fail = [&](const std::string& why) {
    h.modalityLut = {};
    h.warnings.push_back(h.path + ": Modality LUT Sequence " + why + "; stored values shown");
  };
  if (!item) {
    return fail("has no item");
  }
  // The descriptor is US or SS (PS3.3 C.11.1.1): read its three values either way.
  auto descriptor = [&](unsigned long pos) -> std::optional<Uint16> {
    Uint16 u = 0;
    Sint16 s = 0;
    if (item->findAndGetUint16(DCM_LUTDescriptor, u, pos).good()) {
      return u;
    }
    if (item->findAndGetSint16(DCM_LUTDescriptor, s, pos).good()) {
      return static_cast<Uint16>(s);
    }
    return std::nullopt;
  };
  const auto e0 = descriptor(0), e1 = descriptor(1), e2 = descriptor(2);
  if (!e0 || !e1 || !e2) {
    return fail("has no readable LUT Descriptor");
  }
  const Uint16 entries = *e0, firstUnsigned = *e1, bits = *e2;
  const std::size_t n = entries == 0 ? 65536 : entries;  // 0 means 2^16 entries
  if (bits < 8 || bits > 16) {
    return fail("has " + std::to_string(bits) + "-bit entries (8 to 16 are read)");
  }
  const Uint16* data = nullptr;
  unsigned long count = 0;
  if (item->findAndGetUint16Array(DCM_LUTData, data, &count).bad() || data == nullptr) {
    return fail("has no LUT Data");
  }
  if (count < n) {
    return fail("holds " + std::to_string(count) + " entries where its descriptor names " +
                std::to_string(n));
  }
  // The first stored value mapped is signed when the pixels are (PS3.3 C.11.1.1).
  h.modalityLut.first = h.pixelSigned ? static_cast<std::int16_t>(firstUnsigned) : firstUnsigned;
  h.modalityLut.bits = bits;
  h.modalityLut.table.assign(data, data + n);
  const Uint16 mask = static_cast<Uint16>(bits >= 16 ? 0xFFFF : (1u << bits) - 1);
  for (auto& v : h.modalityLut.table) {
    v &= mask;
  }
}

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
