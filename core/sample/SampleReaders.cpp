#include "core/sample/SampleReaders.h"

#include <cstdint>

namespace delineate::core::sample {

std::vector<LabelMap> sampleReaders(const SampleCase& c) {
  const ImageGeometry& g = c.labels->geometry();
  const std::uint16_t* truth = c.labels->data<std::uint16_t>();
  const Size3 n = g.size;
  const auto at = [&n](std::size_t i, std::size_t j, std::size_t k) {
    return i + n[0] * (j + n[1] * k);
  };
  LabelMap smaller("reader-b", g, c.segments);
  LabelMap shifted("reader-c", g, c.segments);
  for (std::size_t k = 0; k < n[2]; ++k) {
    for (std::size_t j = 0; j < n[1]; ++j) {
      for (std::size_t i = 0; i < n[0]; ++i) {
        const std::uint16_t v = truth[at(i, j, k)];
        // A boundary voxel: a 4-neighbour in the slice holds another value.
        const bool boundary = v != 0 && ((i > 0 && truth[at(i - 1, j, k)] != v) ||
                                         (i + 1 < n[0] && truth[at(i + 1, j, k)] != v) ||
                                         (j > 0 && truth[at(i, j - 1, k)] != v) ||
                                         (j + 1 < n[1] && truth[at(i, j + 1, k)] != v));
        smaller.mutableData()[at(i, j, k)] = boundary && k % 2 == 0 ? 0 : v;
        shifted.mutableData()[at(i, j, k)] = i > 0 ? truth[at(i - 1, j, k)] : 0;
      }
    }
  }
  std::vector<LabelMap> out;
  out.push_back(std::move(smaller));
  out.push_back(std::move(shifted));
  return out;
}

}  // namespace delineate::core::sample
