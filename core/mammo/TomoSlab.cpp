#include "core/mammo/TomoSlab.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>

#include "core/Error.h"
#include "core/jobs/ParallelFor.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::core::mammo {

const char* keyOf(SlabMode mode) {
  switch (mode) {
    case SlabMode::Average:
      return "average";
    case SlabMode::Maximum:
      return "maximum";
    case SlabMode::Off:
      break;
  }
  return "off";
}

std::pair<std::size_t, std::size_t> slabFrames(std::size_t centre, std::size_t frames,
                                               double frameSpacingMm, double slabMm) {
  if (frames == 0) {
    return {0, 0};
  }
  centre = std::min(centre, frames - 1);
  const double spacing = frameSpacingMm > 0 ? frameSpacingMm : 1.0;
  const auto wanted = static_cast<std::size_t>(std::max(1.0, std::round(slabMm / spacing)));
  const std::size_t count = std::min(wanted, frames);
  const std::size_t before = (count - 1) / 2;
  std::size_t first = centre >= before ? centre - before : 0;
  first = std::min(first, frames - count);
  return {first, first + count - 1};
}

VolumePtr slabOf(const Volume& stack, std::size_t first, std::size_t last, SlabMode mode) {
  const ImageGeometry& g = stack.geometry();
  if (first > last || last >= g.size[2]) {
    throw Error(ErrorKind::InvalidInput, stack.info().sourcePath,
                "the slab of frames " + std::to_string(first + 1) + " to " +
                    std::to_string(last + 1) + " is not in a stack of " +
                    std::to_string(g.size[2]) + " frames");
  }
  const std::size_t columns = g.size[0], rows = g.size[1], plane = columns * rows;
  auto voxels = std::make_shared<VoxelBuffer>(stack.scalarType(), plane);
  ImageGeometry out = g;
  out.size[2] = 1;
  const Vec3 axis = g.axis(2);
  const double offset = 0.5 * double(first + last) * g.spacing[2];
  for (int a = 0; a < 3; ++a) {
    out.origin[a] = g.origin[a] + axis[a] * offset;
  }
  const std::size_t count = last - first + 1;
  dispatchScalar(stack.scalarType(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = stack.data<T>() + first * plane;
    T* dst = voxels->as<T>();
    NullProgress quiet;
    const std::size_t band = 64;
    parallelFor((rows + band - 1) / band, hardwareThreads(), quiet, [&](std::size_t b) {
      const std::size_t begin = b * band * columns;
      const std::size_t end = std::min(rows, (b + 1) * band) * columns;
      for (std::size_t i = begin; i < end; ++i) {
        if (mode == SlabMode::Maximum) {
          T best = src[i];
          for (std::size_t f = 1; f < count; ++f) {
            best = std::max(best, src[f * plane + i]);
          }
          dst[i] = best;
        } else {
          double sum = 0;
          for (std::size_t f = 0; f < count; ++f) {
            sum += static_cast<double>(src[f * plane + i]);
          }
          const double mean = sum / static_cast<double>(count);
          if constexpr (std::is_integral_v<T>) {
            dst[i] = static_cast<T>(std::lround(mean));
          } else {
            dst[i] = static_cast<T>(mean);
          }
        }
      }
    });
  });
  return std::make_shared<Volume>(out, std::move(voxels), stack.info());
}

}  // namespace delineate::core::mammo
