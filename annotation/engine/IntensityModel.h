#pragma once
// Which intensities belong to the structure. Each positive click's neighbourhood gives a value,
// and so does each negative click's. The first model keeps a narrow core band around each
// distinct positive value (a tissue). refined() then looks at the histogram of the region found
// so far and, separately, of a shell around it: the region's modes are the structure's tissues,
// the shell's modes its neighbours, and each tissue's band reaches half way to the nearest
// neighbour on either side, which is where a blurred edge is 50 % each and the true border lies.
// Positive clicks whose value is no tissue's (partial volume at an edge) widen the band around
// themselves only (localRanges).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "annotation/engine/Clicks.h"
#include "annotation/engine/RoiImage.h"

namespace delineate::annotation {

struct IntensityBand {
  double centre = 0;
  double lo = 0, hi = 0;
  // Bands of one group are one tissue seen at different values (a bias field); a region grows
  // from a click only through voxels of its own group, so that two tissues of a structure (a
  // kidney's sinus and parenchyma) do not let each other's neighbours in.
  std::uint8_t group = 1;
};

class IntensityModel {
 public:
  IntensityModel() = default;
  // Core bands: tissue value +- bandSd SDs of the smoothed image's noise. `clicks` in the order
  // given; those outside the region of interest are ignored.
  IntensityModel(const RoiImage& roi, const std::vector<GuidanceClick>& clicks, double bandSd);

  // Bands from the modes of the smoothed values of `region` (1 = in) and of the voxels within
  // `shellVoxels` face steps of it (0: of the region alone, e.g. balls around the clicks).
  IntensityModel refined(const RoiImage& roi, const std::vector<std::uint8_t>& region,
                         int shellVoxels) const;

  // The group of the band holding `value`, 0 when none does.
  std::uint8_t groupOf(float value) const {
    for (const IntensityBand& b : bands_) {
      if (value >= b.lo && value <= b.hi) {
        return b.group;
      }
    }
    return 0;
  }
  bool candidate(float value) const { return groupOf(value) != 0; }
  // The group of the band whose centre is nearest to `value` (0 without bands).
  std::uint8_t nearestGroup(double value) const;
  const std::vector<IntensityBand>& bands() const { return bands_; }

  // Positive clicks on an edge (their value in no band): around each, within a few mm, values
  // from the nearest band's edge to the click's value are candidates too. Local, because a
  // threshold moved everywhere would take in the whole partial-volume rim of the neighbour.
  struct LocalRange {
    core::Size3 voxel;
    double lo = 0, hi = 0;
    std::uint8_t group = 1;
  };
  const std::vector<LocalRange>& localRanges() const { return localRanges_; }

  // Whether the positive click at `voxel` founded a tissue (the first click, or a later one well
  // inside a tissue of its own); the others only add what lies near them.
  bool foundsTissue(const core::Size3& voxel) const {
    return std::find(founders_.begin(), founders_.end(), voxel) != founders_.end();
  }

 private:
  struct ClickValue {
    core::Size3 voxel;
    double value;
    bool positive;
    bool flat;  // inside a tissue rather than on an edge
  };
  std::vector<ClickValue> clicks_;  // in click order
  struct Tissue {
    double value;
    bool flat;  // its first click lies inside a tissue, not on an edge
    core::Size3 voxel;
  };
  std::vector<Tissue> tissues_;     // distinct positive values, in click order
  double sd_ = 1;                   // of the smoothed image's noise
  double core_ = 3;                 // half width of a core band
  std::vector<IntensityBand> bands_;
  std::vector<LocalRange> localRanges_;
  std::vector<core::Size3> founders_;

  // Numbers the bands' groups: neighbouring bands whose centres lie within kMergeSd noise SDs
  // share one.
  void assignGroups();
};

// Median of the smoothed image over the 3x3x3 neighbourhood of volume voxel v (clipped to the
// region of interest), the value a click stands for.
double clickValue(const RoiImage& roi, const core::Size3& v);

}  // namespace delineate::annotation
