#include "core/ai/Dextr3dCrop.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/Error.h"

namespace delineate::core::ai {

namespace {

const char* const kWhat = "DEXTR3D extreme points";

double extent(const Dextr3dCrop& c, int axis) {
  return double(c.box.hi[axis] - c.box.lo[axis]);
}

template <class T>
void sampleInto(const T* in, const Size3& n, const Dextr3dCrop& crop, float* out) {
  // Per axis, the two neighbours and the weight of the upper one for every crop index.
  struct Tap {
    std::size_t lo, hi;
    double w;
  };
  std::array<std::vector<Tap>, 3> taps;
  for (int a = 0; a < 3; ++a) {
    taps[a].resize(crop.roi[a]);
    for (std::size_t c = 0; c < crop.roi[a]; ++c) {
      const double x = std::clamp(crop.toImage(a, double(c)), 0.0, double(n[a] - 1));
      const std::size_t lo = static_cast<std::size_t>(std::floor(x));
      taps[a][c] = {lo, std::min(lo + 1, n[a] - 1), x - double(lo)};
    }
  }
  const auto at = [&](std::size_t i, std::size_t j, std::size_t k) {
    return double(in[i + n[0] * (j + n[1] * k)]);
  };
  for (std::size_t k = 0; k < crop.roi[2]; ++k) {
    const Tap& tk = taps[2][k];
    for (std::size_t j = 0; j < crop.roi[1]; ++j) {
      const Tap& tj = taps[1][j];
      for (std::size_t i = 0; i < crop.roi[0]; ++i) {
        const Tap& ti = taps[0][i];
        const double c00 = at(ti.lo, tj.lo, tk.lo) * (1 - ti.w) + at(ti.hi, tj.lo, tk.lo) * ti.w;
        const double c10 = at(ti.lo, tj.hi, tk.lo) * (1 - ti.w) + at(ti.hi, tj.hi, tk.lo) * ti.w;
        const double c01 = at(ti.lo, tj.lo, tk.hi) * (1 - ti.w) + at(ti.hi, tj.lo, tk.hi) * ti.w;
        const double c11 = at(ti.lo, tj.hi, tk.hi) * (1 - ti.w) + at(ti.hi, tj.hi, tk.hi) * ti.w;
        const double c0 = c00 * (1 - tj.w) + c10 * tj.w;
        const double c1 = c01 * (1 - tj.w) + c11 * tj.w;
        *out++ = static_cast<float>(c0 * (1 - tk.w) + c1 * tk.w);
      }
    }
  }
}

}  // namespace

double Dextr3dCrop::toCrop(int axis, double i) const {
  return (i - double(box.lo[axis]) + 0.5) * double(roi[axis]) / extent(*this, axis) - 0.5;
}

double Dextr3dCrop::toImage(int axis, double c) const {
  return double(box.lo[axis]) - 0.5 + (c + 0.5) * extent(*this, axis) / double(roi[axis]);
}

Dextr3dCrop planDextr3dCrop(const ImageGeometry& image, const std::vector<VoxelIndex>& points,
                            double paddingMm, const Size3& roi) {
  if (points.size() < 6) {
    throw Error(ErrorKind::InvalidInput, kWhat,
                "six extreme points are needed, " + std::to_string(points.size()) + " given");
  }
  if (!(paddingMm >= 0) || roi[0] == 0 || roi[1] == 0 || roi[2] == 0) {
    throw Error(ErrorKind::InvalidInput, kWhat, "the model's padding or roi size is not usable");
  }
  Dextr3dCrop c;
  c.roi = roi;
  std::array<std::int64_t, 3> lo{}, hi{};
  for (int a = 0; a < 3; ++a) {
    lo[a] = hi[a] = points.front()[a];
  }
  for (const VoxelIndex& p : points) {
    for (int a = 0; a < 3; ++a) {
      if (p[a] < 0 || p[a] >= std::int64_t(image.size[a])) {
        throw Error(ErrorKind::InvalidInput, kWhat, "a point lies outside the image");
      }
      lo[a] = std::min(lo[a], p[a]);
      hi[a] = std::max(hi[a], p[a]);
    }
  }
  for (int a = 0; a < 3; ++a) {
    const auto pad = static_cast<std::int64_t>(std::ceil(paddingMm / image.spacing[a]));
    c.box.lo[a] = std::size_t(std::max<std::int64_t>(0, lo[a] - pad));
    c.box.hi[a] = std::size_t(std::min<std::int64_t>(std::int64_t(image.size[a]), hi[a] + pad + 1));
  }
  c.grid = image;
  c.grid.size = roi;
  Vec3 first{};
  for (int a = 0; a < 3; ++a) {
    c.grid.spacing[a] = image.spacing[a] * extent(c, a) / double(roi[a]);
    first[a] = c.toImage(a, 0.0);
  }
  c.grid.origin = image.indexToWorld(first);
  return c;
}

VolumePtr resampleCrop(const Volume& image, const Dextr3dCrop& crop) {
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Float32, crop.grid.voxelCount());
  float* out = voxels->as<float>();
  const Size3& n = image.geometry().size;
  const void* in = image.voxels().data();
  switch (image.scalarType()) {
    case ScalarType::UInt8:
      sampleInto(static_cast<const std::uint8_t*>(in), n, crop, out);
      break;
    case ScalarType::Int8:
      sampleInto(static_cast<const std::int8_t*>(in), n, crop, out);
      break;
    case ScalarType::UInt16:
      sampleInto(static_cast<const std::uint16_t*>(in), n, crop, out);
      break;
    case ScalarType::Int16:
      sampleInto(static_cast<const std::int16_t*>(in), n, crop, out);
      break;
    case ScalarType::UInt32:
      sampleInto(static_cast<const std::uint32_t*>(in), n, crop, out);
      break;
    case ScalarType::Int32:
      sampleInto(static_cast<const std::int32_t*>(in), n, crop, out);
      break;
    case ScalarType::Float32:
      sampleInto(static_cast<const float*>(in), n, crop, out);
      break;
    case ScalarType::Float64:
      sampleInto(static_cast<const double*>(in), n, crop, out);
      break;
    default:
      throw Error(ErrorKind::Unsupported, kWhat, "the image's voxel type cannot be resampled");
  }
  return std::make_shared<const Volume>(crop.grid, std::move(voxels), image.info());
}

std::vector<VoxelIndex> pointsInCrop(const std::vector<VoxelIndex>& points,
                                     const Dextr3dCrop& crop) {
  std::vector<VoxelIndex> out;
  out.reserve(points.size());
  for (const VoxelIndex& p : points) {
    VoxelIndex c{};
    for (int a = 0; a < 3; ++a) {
      const double x = std::round(crop.toCrop(a, double(p[a])));
      c[a] = std::clamp<std::int64_t>(std::int64_t(x), 0, std::int64_t(crop.roi[a]) - 1);
    }
    out.push_back(c);
  }
  return out;
}

void pasteCrop(const LabelMap& mask, const Dextr3dCrop& crop, LabelMap& into) {
  if (mask.geometry().size != crop.roi) {
    throw Error(ErrorKind::InvalidInput, kWhat, "the returned mask is not of the crop's size");
  }
  std::array<std::vector<std::size_t>, 3> nearest;
  for (int a = 0; a < 3; ++a) {
    for (std::size_t i = crop.box.lo[a]; i < crop.box.hi[a]; ++i) {
      const double c = std::round(crop.toCrop(a, double(i)));
      nearest[a].push_back(std::size_t(std::clamp(c, 0.0, double(crop.roi[a] - 1))));
    }
  }
  const std::uint16_t* in = mask.data();
  for (std::size_t k = crop.box.lo[2]; k < crop.box.hi[2]; ++k) {
    const std::size_t ck = nearest[2][k - crop.box.lo[2]];
    for (std::size_t j = crop.box.lo[1]; j < crop.box.hi[1]; ++j) {
      const std::size_t cj = nearest[1][j - crop.box.lo[1]];
      std::uint16_t* row = into.mutableData() + into.index(0, j, k);
      const std::uint16_t* from = in + mask.index(0, cj, ck);
      for (std::size_t i = crop.box.lo[0]; i < crop.box.hi[0]; ++i) {
        row[i] = from[nearest[0][i - crop.box.lo[0]]];
      }
    }
  }
  into.bumpVersion();
}

}  // namespace delineate::core::ai
