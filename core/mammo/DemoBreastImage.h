#pragma once
// One mammogram made ready for the built-in demonstration detector: the full-resolution image as
// floats (dense = bright), a block-mean copy of about 1 mm pixels (8 or 16 image pixels a side,
// also the heatmap's grid), the breast on that copy (background thresholded, largest region) and
// its tissue (the breast less the pectoral muscle of lateral views), the side of the chest wall,
// the pixel noise, and the pixel sizes in mm.
#include <cstddef>

#include "core/mammo/MammoImageOps.h"
#include "core/mammo/MammoView.h"
#include "core/model/Volume.h"

namespace delineate::core::mammo {

struct BreastImage {
  FloatImage full;
  FloatImage coarse;  // means of factor x factor blocks of `full`
  Mask breast;        // on `coarse`; all clear for an image without contrast
  Mask tissue;        // `breast` less the pectoral muscle (MLO, ML, LM, LMO views)
  std::size_t factor = 8;
  double pixelMm = 0.1;       // full-resolution pixel size (mean of column and row spacing)
  double coarseMm = 0.8;      // pixelMm * factor
  bool chestWallLeft = true;  // the chest wall at column 0 (else at the last column)
  float low = 0, high = 0;    // 5th and 95th percentile of the tissue on `coarse`
  double noise = 0;           // standard deviation of the pixel noise in the breast, full size

  bool hasBreast() const { return high > low; }
  // Whether full-resolution pixel (c, r) lies in the breast.
  bool inBreast(std::size_t c, std::size_t r) const {
    return breast[(r / factor) * coarse.columns + c / factor] != 0;
  }
};

// Throws Error(Unsupported) for an image that is not 2-D (more than one slice).
// `laterality` decides the chest wall's side only when the image does not show it.
BreastImage prepareBreastImage(const Volume& volume, Laterality laterality, ViewCode view);

}  // namespace delineate::core::mammo
