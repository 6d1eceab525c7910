#pragma once
// What the user tells a point-guided segmenter: clicks inside (positive) and outside (negative)
// the structure, and optionally its six extreme points. Voxel indices on the image grid.
#include <array>
#include <optional>
#include <vector>

#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

struct GuidanceClick {
  core::Size3 voxel{0, 0, 0};
  bool positive = true;

  bool operator==(const GuidanceClick&) const = default;
};

// Extreme points in any order: the voxels of the structure that lie farthest left, right,
// anterior, posterior, superior and inferior (DEXTR's input).
using ExtremePoints = std::array<core::Size3, 6>;

struct Guidance {
  std::vector<GuidanceClick> clicks;  // in the order they were given
  std::optional<ExtremePoints> extremePoints;

  void add(const core::Size3& voxel, bool positive) { clicks.push_back({voxel, positive}); }
  std::vector<core::Size3> positives() const { return of(true); }
  std::vector<core::Size3> negatives() const { return of(false); }

 private:
  std::vector<core::Size3> of(bool positive) const {
    std::vector<core::Size3> out;
    for (const GuidanceClick& c : clicks) {
      if (c.positive == positive) {
        out.push_back(c.voxel);
      }
    }
    return out;
  }
};

}  // namespace delineate::annotation
