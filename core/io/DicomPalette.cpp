#include "core/io/DicomPalette.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcitem.h>

#include <cmath>

#include "core/Error.h"

namespace delineate::core {

namespace {

constexpr std::size_t kMaxEntries = 65536;

struct Expander {
  const std::vector<std::uint16_t>& items;
  const std::string& path;
  std::vector<std::uint16_t> out;

  [[noreturn]] void fail(const std::string& why) const {
    throw Error(ErrorKind::InvalidInput, path, "Segmented Palette Color LUT Data: " + why);
  }
  void push(std::uint16_t v) {
    if (out.size() >= kMaxEntries) {
      fail("expands to more than 65536 entries");
    }
    out.push_back(v);
  }
  // Expands segments from item `at`; stops after `segments` segments (0: at the end of the data).
  void run(std::size_t at, std::size_t segments, int depth) {
    if (depth > 8) {
      fail("indirect segments nest more than 8 deep");
    }
    std::size_t done = 0;
    while (at + 1 < items.size() && (segments == 0 || done < segments)) {
      const std::uint16_t opcode = items[at];
      const std::size_t length = items[at + 1];
      at += 2;
      if (opcode == 0) {  // discrete: `length` values
        if (at + length > items.size()) {
          fail("a discrete segment runs past the end of the data");
        }
        for (std::size_t i = 0; i < length; ++i) {
          push(items[at + i]);
        }
        at += length;
      } else if (opcode == 1) {  // linear: from the last value to y1 in `length` steps
        if (out.empty()) {
          fail("the first segment is a linear one (it has no value to start from)");
        }
        if (at >= items.size()) {
          fail("a linear segment has no end value");
        }
        const double y0 = out.back();
        const double y1 = items[at++];
        for (std::size_t i = 1; i <= length; ++i) {
          const double y = y0 + (y1 - y0) * static_cast<double>(i) / static_cast<double>(length);
          push(static_cast<std::uint16_t>(std::floor(y + 0.5)));
        }
      } else if (opcode == 2) {  // indirect: `length` segments copied from an offset
        if (out.empty()) {
          fail("the first segment is an indirect one");
        }
        if (at + 1 >= items.size()) {
          fail("an indirect segment has no offset");
        }
        // The offset's low word first, as pydicom and DCMTK read it; it counts items.
        const std::size_t offset =
            static_cast<std::size_t>(items[at]) | (static_cast<std::size_t>(items[at + 1]) << 16);
        at += 2;
        if (offset >= items.size() || length == 0) {
          fail("an indirect segment points outside the data");
        }
        run(offset, length, depth + 1);
      } else {
        fail("unknown segment type " + std::to_string(opcode));
      }
      ++done;
    }
  }
};

std::optional<Uint16> descriptorValue(DcmItem& ds, const DcmTagKey& tag, unsigned long pos) {
  Uint16 u = 0;
  Sint16 s = 0;
  if (ds.findAndGetUint16(tag, u, pos).good()) {
    return u;
  }
  if (ds.findAndGetSint16(tag, s, pos).good()) {
    return static_cast<Uint16>(s);
  }
  return std::nullopt;
}

std::vector<std::uint16_t> words(DcmItem& ds, const DcmTagKey& tag) {
  const Uint16* data = nullptr;
  unsigned long count = 0;
  if (ds.findAndGetUint16Array(tag, data, &count).bad() || data == nullptr) {
    // 8-bit tables are sometimes written as OB.
    const Uint8* bytes = nullptr;
    if (ds.findAndGetUint8Array(tag, bytes, &count).bad() || bytes == nullptr) {
      return {};
    }
    std::vector<std::uint16_t> out;
    for (unsigned long i = 0; i + 1 < count; i += 2) {
      out.push_back(static_cast<std::uint16_t>(bytes[i] | (bytes[i + 1] << 8)));
    }
    return out;
  }
  return {data, data + count};
}

// 8-bit items are packed two to a 16-bit word, the first in the low byte.
std::vector<std::uint16_t> unpackBytes(const std::vector<std::uint16_t>& w) {
  std::vector<std::uint16_t> out;
  out.reserve(2 * w.size());
  for (std::uint16_t v : w) {
    out.push_back(v & 0xFF);
    out.push_back(v >> 8);
  }
  return out;
}

}  // namespace

std::vector<std::uint16_t> expandSegmentedLut(const std::vector<std::uint16_t>& items,
                                              const std::string& path) {
  Expander e{items, path, {}};
  e.run(0, 0, 0);
  return std::move(e.out);
}

DicomPalette readDicomPalette(DcmItem& ds, bool pixelSigned, const std::string& path) {
  static const char* const names[3] = {"Red", "Green", "Blue"};
  static const DcmTagKey descriptors[3] = {DCM_RedPaletteColorLookupTableDescriptor,
                                           DCM_GreenPaletteColorLookupTableDescriptor,
                                           DCM_BluePaletteColorLookupTableDescriptor};
  static const DcmTagKey plain[3] = {DCM_RedPaletteColorLookupTableData,
                                     DCM_GreenPaletteColorLookupTableData,
                                     DCM_BluePaletteColorLookupTableData};
  static const DcmTagKey segmented[3] = {DCM_SegmentedRedPaletteColorLookupTableData,
                                         DCM_SegmentedGreenPaletteColorLookupTableData,
                                         DCM_SegmentedBluePaletteColorLookupTableData};
  DicomPalette palette;
  for (int c = 0; c < 3; ++c) {
    auto fail = [&](const std::string& why) {
      throw Error(
          ErrorKind::InvalidInput, path,
          std::string("PALETTE COLOR image: the ") + names[c] + " Palette Color LUT " + why);
    };
    const auto e0 = descriptorValue(ds, descriptors[c], 0);
    const auto e1 = descriptorValue(ds, descriptors[c], 1);
    const auto e2 = descriptorValue(ds, descriptors[c], 2);
    if (!e0 || !e1 || !e2) {
      fail("Descriptor is missing or incomplete");
    }
    const std::size_t entries = *e0 == 0 ? kMaxEntries : *e0;
    const unsigned bits = *e2;
    if (bits != 8 && bits != 16) {
      fail("has " + std::to_string(bits) + "-bit entries (8 or 16 are defined)");
    }
    // The first mapped value is signed when the pixels are (PS3.3 C.7.6.3.1.5).
    const std::int64_t first = pixelSigned ? static_cast<std::int16_t>(*e1) : *e1;
    if (c == 0) {
      palette.firstMapped = first;
      palette.bits = bits;
    } else if (first != palette.firstMapped || bits != palette.bits) {
      fail("Descriptor differs from the red one's");
    }
    std::vector<std::uint16_t> table;
    if (ds.tagExists(plain[c])) {
      const std::vector<std::uint16_t> w = words(ds, plain[c]);
      if (bits == 8 && w.size() * 2 >= entries && w.size() < entries) {
        table = unpackBytes(w);  // two 8-bit entries per word, as the standard packs them
      } else {
        table = w;  // 16-bit entries, or 8-bit entries each in a word of its own
      }
    } else if (ds.tagExists(segmented[c])) {
      const std::vector<std::uint16_t> w = words(ds, segmented[c]);
      table = expandSegmentedLut(bits == 8 ? unpackBytes(w) : w, path);
    } else {
      fail("Data is missing (neither plain nor segmented)");
    }
    if (table.size() < entries) {
      fail("Data holds " + std::to_string(table.size()) + " entries where its descriptor names " +
           std::to_string(entries));
    }
    table.resize(entries);
    if (bits == 8) {
      // Entries each in a 16-bit word: some writers use the high byte.
      bool high = false;
      for (std::uint16_t v : table) {
        high = high || v > 0xFF;
      }
      for (auto& v : table) {
        v = high ? static_cast<std::uint16_t>(v >> 8) : v;
      }
    }
    palette.tables[static_cast<std::size_t>(c)] = std::move(table);
  }
  return palette;
}

}  // namespace delineate::core
