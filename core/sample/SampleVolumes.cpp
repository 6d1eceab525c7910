#include "core/sample/SampleVolumes.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace delineate::core::sample {

double Ellipsoid::normalizedRadius(const Vec3& p) const {
  double s = 0;
  for (int a = 0; a < 3; ++a) {
    const double d = (p[a] - centre[a]) / radii[a];
    s += d * d;
  }
  return std::sqrt(s);
}

double Ellipsoid::signedDistance(const Vec3& p) const {
  return (normalizedRadius(p) - 1.0) * std::min({radii[0], radii[1], radii[2]});
}

ImageGeometry centredGeometry(const Size3& size, const Vec3& spacing) {
  ImageGeometry g;
  g.size = size;
  g.spacing = spacing;
  for (int a = 0; a < 3; ++a) {
    g.origin[a] = -0.5 * static_cast<double>(size[a] - 1) * spacing[a];
  }
  return g;
}

void blur121(std::vector<float>& image, const Size3& size) {
  const std::size_t stride[3] = {1, size[0], size[0] * size[1]};
  std::vector<float> line;
  for (int axis = 0; axis < 3; ++axis) {
    const std::size_t n = size[axis];
    if (n < 3) {
      continue;
    }
    line.resize(n);
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    for (std::size_t u = 0; u < size[a1]; ++u) {
      for (std::size_t v = 0; v < size[a2]; ++v) {
        const std::size_t base = u * stride[a1] + v * stride[a2];
        for (std::size_t t = 0; t < n; ++t) {
          line[t] = image[base + t * stride[axis]];
        }
        for (std::size_t t = 0; t < n; ++t) {
          const float prev = line[t == 0 ? 0 : t - 1];
          const float next = line[t + 1 == n ? t : t + 1];
          image[base + t * stride[axis]] = 0.25f * prev + 0.5f * line[t] + 0.25f * next;
        }
      }
    }
  }
}

namespace {
template <class T>
VolumePtr roundedVolume(const ImageGeometry& g, const std::vector<float>& values, VolumeInfo info) {
  auto voxels = std::make_shared<VoxelBuffer>(scalarTypeOf<T>(), values.size());
  T* out = voxels->template as<T>();
  const float lo = static_cast<float>(std::numeric_limits<T>::min());
  const float hi = static_cast<float>(std::numeric_limits<T>::max());
  for (std::size_t n = 0; n < values.size(); ++n) {
    out[n] = static_cast<T>(std::lround(std::clamp(values[n], lo, hi)));
  }
  return std::make_shared<const Volume>(g, std::move(voxels), std::move(info));
}
}  // namespace

VolumePtr int16Volume(const ImageGeometry& g, const std::vector<float>& values, VolumeInfo info) {
  return roundedVolume<std::int16_t>(g, values, std::move(info));
}

VolumePtr uint16Volume(const ImageGeometry& g, const std::vector<float>& values, VolumeInfo info) {
  return roundedVolume<std::uint16_t>(g, values, std::move(info));
}

VolumePtr labelVolume(const ImageGeometry& g, std::vector<std::uint16_t> labels, VolumeInfo info) {
  auto owner = std::make_shared<std::vector<std::uint16_t>>(std::move(labels));
  auto voxels =
      std::make_shared<VoxelBuffer>(ScalarType::UInt16, owner->size(), owner->data(), owner);
  return std::make_shared<const Volume>(g, std::move(voxels), std::move(info));
}

}  // namespace delineate::core::sample
