#include "annotation/engine/HoleFilling.h"

#include <algorithm>

#include "annotation/engine/FaceNeighbours.h"

namespace delineate::annotation {

void fillHoles(std::vector<std::uint8_t>& mask, const core::Size3& n,
               const std::vector<std::size_t>& keepOpen, double maxFraction) {
  const std::size_t nx = n[0], nxy = n[0] * n[1];
  // 0 = unset and not yet reached, 1 = set, 2 = unset and reached from outside.
  std::vector<std::uint8_t> state(mask);
  std::vector<std::size_t> stack;
  auto reach = [&](std::size_t at) {
    if (state[at] == 0) {
      state[at] = 2;
      stack.push_back(at);
    }
  };
  for (std::size_t z = 0; z < n[2]; ++z) {
    for (std::size_t y = 0; y < n[1]; ++y) {
      const bool faceRow = z == 0 || z + 1 == n[2] || y == 0 || y + 1 == n[1];
      for (std::size_t x = 0; x < nx; x += (faceRow || nx < 2) ? 1 : nx - 1) {
        reach(x + y * nx + z * nxy);
      }
    }
  }
  for (std::size_t s : keepOpen) {
    reach(s);
  }
  while (!stack.empty()) {
    const std::size_t at = stack.back();
    stack.pop_back();
    forEachFaceNeighbour(at, n, [&](std::size_t nb, int) { reach(nb); });
  }
  // What is left unreached are the cavities: fill each small enough one.
  const std::size_t limit =
      std::size_t(maxFraction * double(std::count(mask.begin(), mask.end(), std::uint8_t{1})));
  std::vector<std::size_t> cavity;
  for (std::size_t start = 0; start < state.size(); ++start) {
    if (state[start] != 0) {
      continue;
    }
    cavity.clear();
    state[start] = 3;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t at = stack.back();
      stack.pop_back();
      cavity.push_back(at);
      forEachFaceNeighbour(at, n, [&](std::size_t nb, int) {
        if (state[nb] == 0) {
          state[nb] = 3;
          stack.push_back(nb);
        }
      });
    }
    if (cavity.size() <= limit) {
      for (std::size_t at : cavity) {
        mask[at] = 1;
      }
    }
  }
}

}  // namespace delineate::annotation
