#include "core/mammo/ImagePyramid.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "core/jobs/ParallelFor.h"

namespace delineate::core::mammo {

namespace {

constexpr std::size_t kSmallestSide = 256;

bool isInteger(ScalarType t) {
  return t != ScalarType::Float32 && t != ScalarType::Float64;
}

// 2 x 2 mean of `src` (odd last row / column: the edge pixel counts twice).
void halve(const std::uint16_t* src, std::size_t columns, std::size_t rows, std::uint16_t* dst,
           std::size_t outColumns, std::size_t outRows, ProgressSink& progress) {
  const std::size_t band = 64;
  const std::size_t bands = (outRows + band - 1) / band;
  parallelFor(bands, hardwareThreads(), progress, [&](std::size_t b) {
    for (std::size_t r = b * band; r < std::min(outRows, (b + 1) * band); ++r) {
      const std::uint16_t* a = src + 2 * r * columns;
      const std::uint16_t* c = src + std::min(2 * r + 1, rows - 1) * columns;
      std::uint16_t* out = dst + r * outColumns;
      const std::size_t pairs = columns / 2;
      for (std::size_t x = 0; x < pairs; ++x) {
        const std::uint32_t sum = std::uint32_t(a[2 * x]) + a[2 * x + 1] + c[2 * x] + c[2 * x + 1];
        out[x] = static_cast<std::uint16_t>((sum + 2) >> 2);
      }
      if (outColumns > pairs) {  // odd width
        const std::size_t x = columns - 1;
        out[pairs] = static_cast<std::uint16_t>((std::uint32_t(a[x]) + c[x] + 1) >> 1);
      }
    }
  });
}

}  // namespace

std::shared_ptr<ImagePyramid> ImagePyramid::create(VolumePtr volume, std::size_t frame) {
  if (!volume) {
    throw Error(ErrorKind::InvalidInput, "image pyramid", "no image");
  }
  const ImageGeometry& g = volume->geometry();
  if (frame >= g.size[2] || g.size[0] == 0 || g.size[1] == 0) {
    throw Error(ErrorKind::InvalidInput, volume->info().sourcePath,
                "frame " + std::to_string(frame + 1) + " is not in the image");
  }
  auto p = std::shared_ptr<ImagePyramid>(new ImagePyramid());
  p->volume_ = volume;
  p->frame_ = frame;
  const std::size_t columns = g.size[0], rows = g.size[1];
  const std::size_t count = columns * rows, first = frame * count;
  const ScalarType type = volume->scalarType();
  if (type == ScalarType::UInt16) {
    p->levels_.push_back({columns, rows, 1, volume->data<std::uint16_t>() + first});
    return p;
  }
  if (type == ScalarType::Int16 && volume->valueRange().first >= 0) {
    // 12-bit data loaded as Int16: non-negative values have the same bits as UInt16 ones, so
    // the frame is shared here too.
    const auto* bits = reinterpret_cast<const std::uint16_t*>(volume->data<std::int16_t>() + first);
    p->levels_.push_back({columns, rows, 1, bits});
    return p;
  }
  auto converted = std::make_shared<std::vector<std::uint16_t>>(count);
  dispatchScalar(type, [&](auto tag) {
    using T = decltype(tag);
    const T* src = volume->data<T>() + first;
    const auto [lo, hi] = volume->valueRange();
    if (isInteger(type) && hi - lo <= 65535.0) {
      p->origin_ = type == ScalarType::Int16 ? -32768.0 : (type == ScalarType::UInt8 ? 0.0 : lo);
      p->step_ = 1;
    } else {
      p->origin_ = lo;
      p->step_ = hi > lo ? (hi - lo) / 65535.0 : 1.0;
    }
    const double origin = p->origin_, inv = 1.0 / p->step_;
    for (std::size_t i = 0; i < count; ++i) {
      const double idx = std::round((static_cast<double>(src[i]) - origin) * inv);
      (*converted)[i] = static_cast<std::uint16_t>(std::clamp(idx, 0.0, 65535.0));
    }
  });
  p->base_ = converted;
  p->levels_.push_back({columns, rows, 1, converted->data()});
  return p;
}

void ImagePyramid::addLevel(std::vector<std::uint16_t> pixels, std::size_t columns,
                            std::size_t rows, std::size_t factor) {
  auto owned = std::make_shared<std::vector<std::uint16_t>>(std::move(pixels));
  levels_.push_back({columns, rows, factor, owned->data()});
  owned_.push_back(std::move(owned));
}

void ImagePyramid::buildLevels(ProgressSink& progress) {
  levels_.resize(1);
  owned_.clear();
  complete_ = false;
  std::size_t total = 0;
  for (std::size_t c = columns(), r = rows(); c > kSmallestSide || r > kSmallestSide;
       c = (c + 1) / 2, r = (r + 1) / 2) {
    total += (c + 1) / 2 * ((r + 1) / 2);
  }
  std::size_t done = 0;
  while (levels_.back().columns > kSmallestSide || levels_.back().rows > kSmallestSide) {
    const PyramidLevel src = levels_.back();
    const std::size_t c = (src.columns + 1) / 2, r = (src.rows + 1) / 2;
    std::vector<std::uint16_t> out(c * r);
    halve(src.pixels, src.columns, src.rows, out.data(), c, r, progress);
    addLevel(std::move(out), c, r, src.factor * 2);
    done += c * r;
    progress.report(total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0,
                    "Building the image pyramid");
  }
  complete_ = true;
}

void ImagePyramid::buildPreview(unsigned k) {
  levels_.resize(1);
  owned_.clear();
  complete_ = false;
  const PyramidLevel src = levels_.front();
  const std::size_t f = std::size_t{1} << std::min(k, 12u);
  const std::size_t c = std::max<std::size_t>(1, src.columns / f);
  const std::size_t r = std::max<std::size_t>(1, src.rows / f);
  std::vector<std::uint16_t> out(c * r);
  for (std::size_t y = 0; y < r; ++y) {
    const std::uint16_t* row = src.pixels + std::min(src.rows - 1, y * f + f / 2) * src.columns;
    for (std::size_t x = 0; x < c; ++x) {
      out[y * c + x] = row[std::min(src.columns - 1, x * f + f / 2)];
    }
  }
  addLevel(std::move(out), c, r, f);
}

const PyramidLevel& ImagePyramid::levelFor(double scale) const {
  const PyramidLevel* best = &levels_.front();
  for (const PyramidLevel& l : levels_) {
    if (static_cast<double>(l.factor) * scale <= 1.0 + 1e-9) {
      best = &l;
    }
  }
  return *best;
}

std::size_t ImagePyramid::ownedBytes() const {
  std::size_t bytes = base_ ? base_->size() * sizeof(std::uint16_t) : 0;
  for (const auto& o : owned_) {
    bytes += o->size() * sizeof(std::uint16_t);
  }
  return bytes;
}

}  // namespace delineate::core::mammo
