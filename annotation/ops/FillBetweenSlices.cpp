#include "annotation/ops/FillBetweenSlices.h"

#include <itkSignedMaurerDistanceMapImageFilter.h>

#include <cstdint>
#include <vector>

#include "annotation/ops/ItkMask.h"

namespace delineate::annotation {

namespace {

using Image2 = detail::MaskImage<2>;
using Distance2 = itk::Image<float, 2>;

// One slice of a box mask as a 2D frame: axes (u, v) are the two axes other than `axis`.
struct SliceFrame {
  int axis, u, v;
  std::size_t nu, nv;
  SliceFrame(const BoxMask& m, int a) : axis(a), u(a == 0 ? 1 : 0), v(a == 2 ? 1 : 2) {
    const core::Size3 n = m.extent();
    nu = n[u];
    nv = n[v];
  }
  // Offset in m.bits of local (x along u, y along v) on local slice s.
  std::size_t offset(const BoxMask& m, std::size_t s, std::size_t x, std::size_t y) const {
    core::Size3 local{};
    local[axis] = s;
    local[u] = x;
    local[v] = y;
    const core::Size3 n = m.extent();
    return local[0] + n[0] * (local[1] + n[1] * local[2]);
  }
};

// The signed distance map of one slice, padded by one voxel of background on every side so
// that a slice full of mask still has an outside. Negative inside (<= -1), positive outside.
std::vector<float> signedDistance(const BoxMask& m, const SliceFrame& f, std::size_t s,
                                  core::ProgressSink& progress) {
  const std::size_t w = f.nu + 2, h = f.nv + 2;
  auto distanceTo = [&](bool inside) {
    auto image = Image2::New();
    Image2::RegionType region;
    region.SetSize(0, w);
    region.SetSize(1, h);
    image->SetRegions(region);
    image->Allocate(true);
    std::uint8_t* px = image->GetBufferPointer();
    for (std::size_t y = 0; y < h; ++y) {
      for (std::size_t x = 0; x < w; ++x) {
        const bool in =
            x > 0 && y > 0 && x <= f.nu && y <= f.nv && m.bits[f.offset(m, s, x - 1, y - 1)] != 0;
        px[x + w * y] = in == inside ? 1 : 0;
      }
    }
    auto maurer = itk::SignedMaurerDistanceMapImageFilter<Image2, Distance2>::New();
    maurer->SetInput(image);
    maurer->SetUseImageSpacing(false);
    maurer->SetSquaredDistance(false);
    maurer->SetInsideIsPositive(false);
    maurer->SetBackgroundValue(0);
    detail::updateFilter(maurer, progress, "Filling between slices");
    Distance2::Pointer out = maurer->GetOutput();
    out->DisconnectPipeline();
    return out;
  };
  // Outside voxels: distance to the nearest inside voxel; inside ones: to the nearest outside.
  const Distance2::Pointer toInside = distanceTo(true);
  const Distance2::Pointer toOutside = distanceTo(false);
  std::vector<float> d(f.nu * f.nv);
  for (std::size_t y = 0; y < f.nv; ++y) {
    for (std::size_t x = 0; x < f.nu; ++x) {
      const std::size_t p = (x + 1) + w * (y + 1);
      const bool in = m.bits[f.offset(m, s, x, y)] != 0;
      d[x + f.nu * y] = in ? -toOutside->GetBufferPointer()[p] : toInside->GetBufferPointer()[p];
    }
  }
  return d;
}

}  // namespace

BoxMask fillBetweenSlices(const BoxMask& sparse, int axis, core::ProgressSink& progress) {
  if (axis < 0 || axis > 2) {
    throw core::Error(core::ErrorKind::InvalidInput, {},
                      "fillBetweenSlices: axis must be 0, 1 or 2");
  }
  BoxMask out = sparse;
  if (sparse.box.empty()) {
    return out;
  }
  const SliceFrame f(sparse, axis);
  const std::size_t slices = sparse.extent()[axis];
  std::vector<std::size_t> keys;
  for (std::size_t s = 0; s < slices; ++s) {
    bool any = false;
    for (std::size_t y = 0; y < f.nv && !any; ++y) {
      for (std::size_t x = 0; x < f.nu && !any; ++x) {
        any = sparse.bits[f.offset(sparse, s, x, y)] != 0;
      }
    }
    if (any) {
      keys.push_back(s);
    }
  }
  std::vector<float> d0, d1;
  std::size_t d1Key = SIZE_MAX;  // the keyframe d1 holds, reused as the next pair's d0
  for (std::size_t n = 0; n + 1 < keys.size(); ++n) {
    const std::size_t k0 = keys[n], k1 = keys[n + 1];
    if (k1 == k0 + 1) {
      continue;
    }
    const double done = double(n) / double(keys.size() - 1);
    core::SubProgress step(progress, done, done);
    d0 = d1Key == k0 ? std::move(d1) : signedDistance(sparse, f, k0, step);
    d1 = signedDistance(sparse, f, k1, step);
    d1Key = k1;
    for (std::size_t s = k0 + 1; s < k1; ++s) {
      const float w = float(s - k0) / float(k1 - k0);
      for (std::size_t y = 0; y < f.nv; ++y) {
        for (std::size_t x = 0; x < f.nu; ++x) {
          const std::size_t p = x + f.nu * y;
          out.bits[f.offset(out, s, x, y)] = (1 - w) * d0[p] + w * d1[p] < 0 ? 1 : 0;
        }
      }
    }
  }
  progress.report(1.0, "Filling between slices");
  return out;
}

}  // namespace delineate::annotation
