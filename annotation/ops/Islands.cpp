#include "annotation/ops/Islands.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>

namespace delineate::annotation {

namespace {

// The mask as runs of set voxels along x, labelled by connected component (union-find over
// runs: two runs touch when they overlap in x in rows adjacent along y or z).
struct Components {
  struct Run {
    std::size_t row;     // y + ny * z within the box
    std::size_t x0, x1;  // inclusive
  };
  std::vector<Run> runs;
  std::vector<std::size_t> component;  // per run: its component id 0..sizes.size()-1
  std::vector<std::size_t> sizes;      // per component: voxel count

  explicit Components(const BoxMask& mask) {
    const core::Size3 n = mask.extent();
    const std::size_t rows = n[1] * n[2];
    std::vector<std::size_t> rowStart(rows + 1, 0);
    for (std::size_t r = 0; r < rows; ++r) {
      rowStart[r] = runs.size();
      const std::uint8_t* p = mask.bits.data() + r * n[0];
      for (std::size_t x = 0; x < n[0];) {
        if (!p[x]) {
          ++x;
          continue;
        }
        const std::size_t x0 = x;
        while (x < n[0] && p[x]) {
          ++x;
        }
        runs.push_back({r, x0, x - 1});
      }
    }
    rowStart[rows] = runs.size();

    std::vector<std::size_t> parent(runs.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    auto find = [&](std::size_t a) {
      while (parent[a] != a) {
        parent[a] = parent[parent[a]];
        a = parent[a];
      }
      return a;
    };
    auto unite = [&](std::size_t a, std::size_t b) {
      a = find(a);
      b = find(b);
      if (a != b) {
        parent[std::max(a, b)] = std::min(a, b);
      }
    };
    // Merges the overlapping runs of rows r and q (both sorted by x).
    auto link = [&](std::size_t r, std::size_t q) {
      std::size_t a = rowStart[r], b = rowStart[q];
      while (a < rowStart[r + 1] && b < rowStart[q + 1]) {
        if (runs[a].x0 <= runs[b].x1 && runs[b].x0 <= runs[a].x1) {
          unite(a, b);
        }
        if (runs[a].x1 < runs[b].x1) {
          ++a;
        } else {
          ++b;
        }
      }
    };
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t y = r % std::max<std::size_t>(n[1], 1);
      if (y > 0) {
        link(r, r - 1);
      }
      if (r >= n[1]) {
        link(r, r - n[1]);
      }
    }
    // Number components in order of their first run.
    component.assign(runs.size(), 0);
    std::vector<std::size_t> idOfRoot(runs.size(), SIZE_MAX);
    for (std::size_t a = 0; a < runs.size(); ++a) {
      const std::size_t root = find(a);
      if (idOfRoot[root] == SIZE_MAX) {
        idOfRoot[root] = sizes.size();
        sizes.push_back(0);
      }
      component[a] = idOfRoot[root];
      sizes[component[a]] += runs[a].x1 - runs[a].x0 + 1;
    }
  }

  BoxMask select(const BoxMask& mask, const std::function<bool(std::size_t)>& keep) const {
    BoxMask out(mask.box);
    const std::size_t nx = mask.extent()[0];
    for (std::size_t a = 0; a < runs.size(); ++a) {
      if (keep(component[a])) {
        std::uint8_t* p = out.bits.data() + runs[a].row * nx;
        std::fill(p + runs[a].x0, p + runs[a].x1 + 1, std::uint8_t{1});
      }
    }
    return out;
  }
};

}  // namespace

std::vector<std::size_t> islandSizes(const BoxMask& mask) {
  std::vector<std::size_t> sizes = Components(mask).sizes;
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  return sizes;
}

BoxMask keepLargestIsland(const BoxMask& mask) {
  const Components c(mask);
  if (c.sizes.empty()) {
    return BoxMask(mask.box);
  }
  const std::size_t largest =
      std::size_t(std::max_element(c.sizes.begin(), c.sizes.end()) - c.sizes.begin());
  return c.select(mask, [&](std::size_t id) { return id == largest; });
}

BoxMask removeSmallIslands(const BoxMask& mask, std::size_t minVoxels) {
  const Components c(mask);
  return c.select(mask, [&](std::size_t id) { return c.sizes[id] >= minVoxels; });
}

}  // namespace delineate::annotation
