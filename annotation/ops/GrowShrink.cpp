#include "annotation/ops/GrowShrink.h"

#include <itkSignedMaurerDistanceMapImageFilter.h>

#include <algorithm>
#include <cmath>

#include "annotation/ops/ItkMask.h"

namespace delineate::annotation {

namespace {

// Distances compare with a little slack so that a margin of exactly k voxels includes them.
constexpr double kSlack = 1e-4;

}  // namespace

BoxMask growShrink(const BoxMask& mask, double marginMm, const core::Vec3& spacing,
                   const core::Size3& volumeSize, core::ProgressSink& progress) {
  const double m = std::abs(marginMm);
  if (m == 0 || mask.box.empty()) {
    return mask;
  }
  core::Size3 reach{};
  for (int a = 0; a < 3; ++a) {
    reach[a] = spacing[a] > 0 ? std::size_t(std::floor(m / spacing[a] + kSlack)) + 1 : 1;
  }
  const bool grow = marginMm > 0;
  // Working box: the mask's box plus the margin (plus one voxel of background) in the volume.
  const core::VoxelBox work = padded(mask.box, reach, volumeSize);
  BoxMask source = mask.reboxed(work);
  if (!grow) {
    // Shrinking = removing what a grow of the background reaches.
    for (std::uint8_t& b : source.bits) {
      b = b ? 0 : 1;
    }
    if (source.none()) {
      return mask;  // the mask fills the volume: nothing to erode from
    }
  } else if (source.none()) {
    return BoxMask(work);
  }

  using Image = detail::MaskImage<3>;
  using Distance = itk::Image<float, 3>;
  detail::Offset3 imageLo{};
  Image::Pointer input = detail::toItkImage(source, {0, 0, 0}, spacing, &imageLo);
  auto maurer = itk::SignedMaurerDistanceMapImageFilter<Image, Distance>::New();
  maurer->SetInput(input);
  maurer->SetUseImageSpacing(true);
  maurer->SetSquaredDistance(false);
  maurer->SetInsideIsPositive(false);
  maurer->SetBackgroundValue(0);
  detail::updateFilter(maurer, progress, grow ? "Growing" : "Shrinking");
  const Distance& d = *maurer->GetOutput();
  const float limit = float(m + kSlack);
  if (grow) {
    // Outside the mask the map is the distance to the nearest mask voxel centre.
    return detail::fromItkImage(d, imageLo, work, [limit](float v) { return v <= limit; });
  }
  // Inside the mask (outside the background) the map is the distance to the nearest background
  // voxel; keep those farther than the margin.
  BoxMask out = detail::fromItkImage(d, imageLo, work, [limit](float v) { return v > limit; });
  return out.reboxed(mask.box);
}

}  // namespace delineate::annotation
