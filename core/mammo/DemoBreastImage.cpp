#include "core/mammo/DemoBreastImage.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "core/mammo/DemoPectoralMuscle.h"

namespace delineate::core::mammo {

namespace {

// Standard deviation of the pixel noise: the median absolute deviation of differences between
// horizontal neighbours (texture is smooth at that scale), over the pixels `inside` accepts.
template <class Inside>
double noiseSigma(const FloatImage& image, Inside inside) {
  std::vector<float> d;
  const std::size_t every = std::max<std::size_t>(1, image.values.size() / (1 << 18));
  for (std::size_t i = 0; i + 1 < image.values.size(); i += every) {
    const std::size_t c = i % image.columns, r = i / image.columns;
    if (c + 1 < image.columns && inside(c, r)) {
      d.push_back(image.values[i + 1] - image.values[i]);
    }
  }
  if (d.size() < 16) {
    return 0;
  }
  const auto mid = d.begin() + std::ptrdiff_t(d.size() / 2);
  std::nth_element(d.begin(), mid, d.end());
  const float median = *mid;
  for (float& v : d) {
    v = std::abs(v - median);
  }
  std::nth_element(d.begin(), mid, d.end());
  return 1.4826 * double(*mid) / std::sqrt(2.0);
}

}  // namespace

BreastImage prepareBreastImage(const Volume& volume, Laterality laterality, ViewCode view) {
  const ImageGeometry& g = volume.geometry();
  if (g.size[2] != 1) {
    throw Error(ErrorKind::Unsupported, volume.info().sourcePath,
                "the demonstration detector reads 2-D mammograms, not " +
                    std::to_string(g.size[2]) + " slices");
  }
  BreastImage b;
  b.pixelMm = 0.5 * (g.spacing[0] + g.spacing[1]);
  if (!(b.pixelMm > 0.005 && b.pixelMm < 5)) {
    b.pixelMm = 0.1;  // no usable spacing: a typical detector pixel
  }
  b.factor = b.pixelMm * 8 >= 0.75 ? 8 : 16;
  b.coarseMm = b.pixelMm * double(b.factor);
  b.full = toFloatImage(volume);
  b.coarse = downsampleMean(b.full, b.factor);
  const std::size_t cc = b.coarse.columns, cr = b.coarse.rows;
  b.breast.assign(cc * cr, 0);
  b.tissue.assign(cc * cr, 0);
  if (cc == 0 || cr == 0) {
    return b;
  }

  // Background: below 12% of the way from the darkest to the brightest percentile. An image whose
  // range is within the noise has no breast (nothing to find).
  const float lo = percentile(b.coarse, {}, 0.01), hi = percentile(b.coarse, {}, 0.99);
  const double sigma = noiseSigma(b.full, [](std::size_t, std::size_t) { return true; });
  if (!(double(hi - lo) > 20 * sigma) || hi - lo <= 1e-6f * std::max(std::abs(hi), 1.0f)) {
    return b;
  }
  const float threshold = lo + 0.12f * (hi - lo);
  for (std::size_t i = 0; i < b.breast.size(); ++i) {
    b.breast[i] = b.coarse.values[i] > threshold ? 1 : 0;
  }
  b.breast = largestRegion(b.breast, cc, cr);
  b.noise = noiseSigma(b.full, [&](std::size_t c, std::size_t r) { return b.inBreast(c, r); });

  // The chest wall: the image edge the breast covers more of.
  const std::size_t strip = std::max<std::size_t>(1, cc / 32);
  std::size_t left = 0, right = 0;
  for (std::size_t r = 0; r < cr; ++r) {
    for (std::size_t k = 0; k < strip; ++k) {
      left += b.breast[r * cc + k];
      right += b.breast[r * cc + cc - 1 - k];
    }
  }
  b.chestWallLeft = left != right ? left > right : laterality != Laterality::Right;

  b.tissue = b.breast;
  if (view == ViewCode::MLO || view == ViewCode::ML || view == ViewCode::LM ||
      view == ViewCode::LMO) {
    const Mask muscle = pectoralMuscle(b.coarse, b.breast, b.chestWallLeft, b.coarseMm);
    for (std::size_t i = 0; i < b.tissue.size(); ++i) {
      b.tissue[i] = muscle[i] ? 0 : b.tissue[i];
    }
  }
  b.low = percentile(b.coarse, b.tissue, 0.05);
  b.high = percentile(b.coarse, b.tissue, 0.95);
  return b;
}

}  // namespace delineate::core::mammo
