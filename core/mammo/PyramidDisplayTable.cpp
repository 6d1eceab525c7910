#include "core/mammo/PyramidDisplayTable.h"

#include <algorithm>
#include <cmath>

namespace delineate::core::mammo {

std::vector<std::uint8_t> pyramidDisplayTable(const ImagePyramid& pyramid,
                                              const DisplaySettings& settings) {
  const Volume& image = *pyramid.volume();
  const DisplayLut lut = DisplayLut::build(image.info(), image.scalarType(), settings);
  std::vector<std::uint8_t> table(65536);
  const bool direct = lut.hasTable() && pyramid.step() == 1.0;
  const long offset = lut.offset();
  const long size = static_cast<long>(lut.size());
  for (long i = 0; i < 65536; ++i) {
    const double value = pyramid.valueOf(static_cast<std::uint16_t>(i));
    const long k = static_cast<long>(value) - offset;
    table[static_cast<std::size_t>(i)] =
        direct && k >= 0 && k < size ? lut.table()[k] : lut.map(value);
  }
  return table;
}

}  // namespace delineate::core::mammo
