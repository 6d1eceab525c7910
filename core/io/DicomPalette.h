#pragma once
// PALETTE COLOR images (PS3.3 C.7.6.3.1.5-6 and C.7.9): each stored sample is an index into three
// tables (red, green, blue). The tables come as plain LUT Data or as Segmented LUT Data (discrete,
// linear and indirect segments), which this expands. DCMTK-free; the reader lives with the header.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

class DcmItem;

namespace delineate::core {

struct DicomPalette {
  std::int64_t firstMapped = 0;                      // the stored value that maps to entry 0
  unsigned bits = 8;                                 // 8 or 16 bits per output value
  std::array<std::vector<std::uint16_t>, 3> tables;  // red, green, blue; same length

  // Entry of stored value v in table c: values below firstMapped take the first entry, values
  // past the end the last (as PS3.3 C.7.6.3.1.5 says).
  std::uint16_t map(std::size_t c, std::int64_t v) const {
    const auto& t = tables[c];
    const std::int64_t k = v - firstMapped;
    if (k <= 0) {
      return t.front();
    }
    return static_cast<std::size_t>(k) >= t.size() ? t.back() : t[static_cast<std::size_t>(k)];
  }
  bool operator==(const DicomPalette&) const = default;
};

// Expands Segmented Palette Color LUT Data. `items` are the data's 8-bit or 16-bit items (opcode,
// length, values...) in order. Throws Error(InvalidInput) naming `path` when a segment is
// malformed (unknown opcode, a linear or indirect segment first, an offset outside the data, a
// loop of indirect segments) or the expansion exceeds 65536 entries.
std::vector<std::uint16_t> expandSegmentedLut(const std::vector<std::uint16_t>& items,
                                              const std::string& path);

// Reads the Palette Color LUT of `dataset`: descriptors (0028,1101-1103) with LUT Data
// (0028,1201-1203) or Segmented LUT Data (0028,1221-1223). Throws Error(InvalidInput) naming
// `path` and the table when the palette is missing or malformed.
DicomPalette readDicomPalette(DcmItem& dataset, bool pixelSigned, const std::string& path);

}  // namespace delineate::core
