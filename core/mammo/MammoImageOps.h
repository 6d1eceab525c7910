#pragma once
// Plain loops over float images for the built-in demonstration detector: conversion of a 2-D
// volume (MONOCHROME1 inverted so that dense is bright), block-mean downsampling, separable 3x3
// smoothing, grey-level opening by a square (van Herk / Gil-Werman, a few comparisons per pixel
// whatever the square's size), integral images for box means, percentiles, and the largest
// connected region of a mask, and the separated local maxima of a score map.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/model/Volume.h"

namespace delineate::core::mammo {

struct FloatImage {
  std::size_t columns = 0, rows = 0;
  std::vector<float> values;  // row by row

  FloatImage() = default;
  FloatImage(std::size_t c, std::size_t r, float fill = 0)
      : columns(c), rows(r), values(c * r, fill) {}
  float& at(std::size_t c, std::size_t r) { return values[r * columns + c]; }
  float at(std::size_t c, std::size_t r) const { return values[r * columns + c]; }
};

using Mask = std::vector<std::uint8_t>;  // 1 = inside, row by row on some image's grid

// The first slice of `volume` as floats (non-finite values as 0); MONOCHROME1 images are
// inverted (min + max - value).
FloatImage toFloatImage(const Volume& volume);

// Means of `factor` x `factor` blocks (the last row and column of blocks may be partial).
FloatImage downsampleMean(const FloatImage& image, std::size_t factor);

// [1 2 1] / 4 along rows and columns; edges replicate.
FloatImage smooth3(const FloatImage& image);

// Grey-level opening (erosion then dilation) by a (2 * radius + 1)^2 square; edges replicate.
FloatImage openingSquare(const FloatImage& image, std::size_t radius);

// The value at fraction q (0..1) of the sorted values of `image` where `mask` is set (all when
// the mask is empty); 0 when there are none. Uses a copy of at most `sampleLimit` values.
float percentile(const FloatImage& image, const Mask& mask, double q,
                 std::size_t sampleLimit = 1 << 18);

// Keeps the largest 4-connected region of `mask` (columns x rows); all clear when empty.
Mask largestRegion(const Mask& mask, std::size_t columns, std::size_t rows);

// Sums over rectangles in O(1): of values (where a mask is set) and of the mask itself, so that
// box means ignore pixels outside the mask (normalised convolution).
class MaskedIntegral {
 public:
  MaskedIntegral(const FloatImage& image, const Mask& mask);
  // Mean over the box of half-size `half` around (c, r), clipped to the image, over masked pixels
  // only; `fraction` receives the share of the box's pixels that are masked (0 when none).
  double mean(long c, long r, long half, double* fraction) const;

 private:
  std::size_t columns_, rows_;
  std::vector<double> sum_, count_;  // (columns + 1) x (rows + 1)
};

struct Peak {
  std::size_t c = 0, r = 0;
  float score = 0;
};

// The local maxima of `score` that reach `threshold` (no larger value within `window` pixels),
// best first, thinned so that no two kept lie closer than `minDistance` pixels. Raises `heat`
// (same grid) to `score` everywhere on the way.
std::vector<Peak> separatedPeaks(const FloatImage& score, float threshold, long window,
                                 double minDistance, FloatImage& heat);

}  // namespace delineate::core::mammo
