#pragma once
// The six face neighbours of a voxel in an x-fastest block, for the segmenters' flood fills.
#include <cstddef>

#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

// Calls f(neighbour, axis) for each face neighbour of work-array index `at` inside a block of
// size n.
template <class F>
void forEachFaceNeighbour(std::size_t at, const core::Size3& n, F&& f) {
  const std::size_t nx = n[0], nxy = n[0] * n[1];
  const std::size_t x = at % nx, y = (at / nx) % n[1], z = at / nxy;
  if (x > 0) {
    f(at - 1, 0);
  }
  if (x + 1 < n[0]) {
    f(at + 1, 0);
  }
  if (y > 0) {
    f(at - nx, 1);
  }
  if (y + 1 < n[1]) {
    f(at + nx, 1);
  }
  if (z > 0) {
    f(at - nxy, 2);
  }
  if (z + 1 < n[2]) {
    f(at + nxy, 2);
  }
}

}  // namespace delineate::annotation
