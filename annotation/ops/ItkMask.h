#pragma once
// Internal to the .cpp files of annotation/ops: BoxMask <-> ITK images, and running an ITK filter
// under a ProgressSink (progress forwarded, cancel aborts the filter). Pulls in ITK headers.
#include <itkCommand.h>
#include <itkImage.h>
#include <itkProcessObject.h>

#include <array>
#include <cstddef>
#include <string>

#include "annotation/ops/BoxMask.h"
#include "core/Error.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::annotation::detail {

template <unsigned D>
using MaskImage = itk::Image<std::uint8_t, D>;
// Volume index of an ITK working image's voxel 0 (may be negative: images are padded past the
// volume's edge where an operation needs background around the mask).
using Offset3 = std::array<std::ptrdiff_t, 3>;

// A 3D image of the mask's box grown by pad[a] voxels on both sides of each axis, 0/1 voxels,
// with `spacing`. Its voxel 0 is at volume index box.lo - pad.
inline MaskImage<3>::Pointer toItkImage(const BoxMask& mask, const core::Size3& pad,
                                        const core::Vec3& spacing, Offset3* imageLo = nullptr) {
  const core::Size3 n = mask.extent();
  auto image = MaskImage<3>::New();
  MaskImage<3>::RegionType region;
  MaskImage<3>::SpacingType sp;
  for (unsigned a = 0; a < 3; ++a) {
    region.SetSize(a, n[a] + 2 * pad[a]);
    sp[a] = spacing[a];
  }
  image->SetRegions(region);
  image->SetSpacing(sp);
  image->Allocate(true);
  std::uint8_t* out = image->GetBufferPointer();
  const std::size_t nx = n[0] + 2 * pad[0], ny = n[1] + 2 * pad[1];
  for (std::size_t z = 0; z < n[2]; ++z) {
    for (std::size_t y = 0; y < n[1]; ++y) {
      const std::uint8_t* src = mask.bits.data() + n[0] * (y + n[1] * z);
      std::copy(src, src + n[0], out + pad[0] + nx * ((y + pad[1]) + ny * (z + pad[2])));
    }
  }
  if (imageLo) {
    for (int a = 0; a < 3; ++a) {
      (*imageLo)[a] = std::ptrdiff_t(mask.box.lo[a]) - std::ptrdiff_t(pad[a]);
    }
  }
  return image;
}

// A mask over `target` whose voxel (i, j, k) is inside(pixel) of the image voxel at volume index
// (i, j, k) (image voxel 0 at `imageLo`); voxels outside the image are 0.
template <class ImageT, class Inside>
BoxMask fromItkImage(const ImageT& image, const Offset3& imageLo, const core::VoxelBox& target,
                     Inside&& inside) {
  BoxMask out(target);
  const auto size = image.GetBufferedRegion().GetSize();
  const auto* px = image.GetBufferPointer();
  for (std::size_t k = out.box.lo[2]; k < out.box.hi[2]; ++k) {
    const std::ptrdiff_t z = std::ptrdiff_t(k) - imageLo[2];
    for (std::size_t j = out.box.lo[1]; j < out.box.hi[1]; ++j) {
      const std::ptrdiff_t y = std::ptrdiff_t(j) - imageLo[1];
      if (z < 0 || y < 0 || z >= std::ptrdiff_t(size[2]) || y >= std::ptrdiff_t(size[1])) {
        continue;
      }
      std::uint8_t* dst = out.bits.data() + out.index(out.box.lo[0], j, k);
      for (std::size_t i = out.box.lo[0]; i < out.box.hi[0]; ++i, ++dst) {
        const std::ptrdiff_t x = std::ptrdiff_t(i) - imageLo[0];
        if (x >= 0 && x < std::ptrdiff_t(size[0])) {
          *dst = inside(px[std::size_t(x) + size[0] * (std::size_t(y) + size[1] * std::size_t(z))])
                     ? 1
                     : 0;
        }
      }
    }
  }
  return out;
}

// Runs filter->Update(), forwarding its progress to `progress` and aborting it when the job is
// cancelled; throws core::CancelledError then.
inline void updateFilter(itk::ProcessObject* filter, core::ProgressSink& progress,
                         const std::string& stage) {
  progress.throwIfCancelled();
  const unsigned long tag = filter->AddObserver(
      itk::ProgressEvent(), [filter, &progress, &stage](const itk::EventObject&) {
        progress.report(filter->GetProgress(), stage);
        if (progress.cancelled()) {
          filter->AbortGenerateDataOn();
        }
      });
  try {
    filter->Update();
  } catch (const itk::ProcessAborted&) {
    filter->RemoveObserver(tag);
    throw core::CancelledError();
  }
  filter->RemoveObserver(tag);
  progress.throwIfCancelled();
}

}  // namespace delineate::annotation::detail
