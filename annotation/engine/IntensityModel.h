#pragma once
// Which intensities belong to the structure, learned from the clicks and the image.
//  - Each positive click stands for the value of its 3x3x3 neighbourhood (smoothed image). The
//    first click founds a tissue; a later one founds another only if its value lies outside
//    the known tissues' core bands and it sits well inside that tissue (a 5x5x5 cube of like
//    values, or at a small structure's centre a 3x3x3 cube of like values and no edge);
//    otherwise it is an edge click (partial volume) and widens the band only around
//    itself (localRanges), or it adds more of a known tissue near itself (foundsTissue false).
//  - refined() finds the neighbouring tissues as modes of the histogram of the flat voxels
//    (RoiImage::flat: no partial volume) of a region and the shell around it. Each tissue's band
//    reaches half way to the nearest neighbour on either side: where a blurred edge is 50 % of
//    each, i.e. where the true border lies. Without a neighbour on a side, the band follows the
//    tissue's own hill, within limits.
//  - A negative click inside another tissue makes it a neighbour (a cut half way, everywhere);
//    one on the structure's own tissue or on an edge is left to geodesic competition (a local
//    cut).
#include <algorithm>
#include <cstdint>
#include <limits>
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
  // The values of the neighbouring centres (tissues or neighbours) the band's edges lie half way
  // to; infinite on a side without one (refined() sets them; core bands have none).
  double lowerNeighbour = -std::numeric_limits<double>::infinity();
  double upperNeighbour = std::numeric_limits<double>::infinity();
};

class IntensityModel {
 public:
  IntensityModel() = default;
  // Core bands: tissue value +- bandSd SDs of the smoothed image's noise. `clicks` in the order
  // given; those outside the region of interest are ignored.
  IntensityModel(const RoiImage& roi, const std::vector<GuidanceClick>& clicks, double bandSd);

  // Bands from the modes of the smoothed values of `region` (1 = in) and of the voxels within
  // `shellVoxels` face steps of it (0: of the region alone, e.g. balls around the clicks). A
  // neighbour this model's band had stays one on a side where the modes now show none (the
  // shell of a thin ribbon holds few flat voxels of it).
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
    bool inside;  // well inside a tissue rather than on an edge
  };
  std::vector<ClickValue> clicks_;  // in click order
  struct Tissue {
    double value;
    bool inside;  // its first click lies well inside a tissue, not on an edge
    core::Size3 voxel;
  };
  std::vector<Tissue> tissues_;  // distinct positive values, in click order
  double sd_ = 1;                // of the smoothed image's noise
  double core_ = 3;              // half width of a core band
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
