#pragma once
// The pectoral muscle of a mediolateral (oblique) view for the built-in demonstration detector:
// the bright band that starts at the top of the chest-wall edge and narrows downward. Found on
// the ~1 mm copy: per row, from the chest wall inward, the run of (lightly smoothed) breast pixels
// brighter than halfway between the breast's median and the muscle's top corner; each row no
// wider than the row above; refused when the corner is not brighter than the breast or when the
// band would cover more than a third of the breast. The detector looks for masses outside it.
#include "core/mammo/MammoImageOps.h"

namespace delineate::core::mammo {

// The muscle on `coarse`'s grid (all clear when there is none), with a margin of ~2 mm.
Mask pectoralMuscle(const FloatImage& coarse, const Mask& breast, bool chestWallLeft,
                    double coarseMm);

}  // namespace delineate::core::mammo
