#include "annotation/ops/SmoothMask.h"

#include <itkBinaryMedianImageFilter.h>
#include <itkBinaryMorphologicalClosingImageFilter.h>
#include <itkBinaryMorphologicalOpeningImageFilter.h>
#include <itkFlatStructuringElement.h>

#include <algorithm>
#include <cmath>

#include "annotation/ops/ItkMask.h"

namespace delineate::annotation {

using Image = detail::MaskImage<3>;

BoxMask smoothMask(const BoxMask& mask, SmoothingKind kind, double radiusMm,
                   const core::Vec3& spacing, core::ProgressSink& progress) {
  itk::Size<3> radius;
  bool any = false;
  for (unsigned a = 0; a < 3; ++a) {
    radius[a] = spacing[a] > 0 ? std::size_t(std::lround(std::max(0.0, radiusMm) / spacing[a])) : 0;
    any = any || radius[a] > 0;
  }
  if (!any || mask.box.empty()) {
    return mask;
  }
  const core::Size3 pad{radius[0] + 1, radius[1] + 1, radius[2] + 1};
  detail::Offset3 imageLo{};
  Image::Pointer input = detail::toItkImage(mask, pad, spacing, &imageLo);
  Image::Pointer output;
  if (kind == SmoothingKind::Median) {
    auto median = itk::BinaryMedianImageFilter<Image, Image>::New();
    median->SetInput(input);
    median->SetRadius(radius);
    median->SetForegroundValue(1);
    median->SetBackgroundValue(0);
    detail::updateFilter(median, progress, "Smoothing (median)");
    output = median->GetOutput();
  } else {
    using Ball = itk::FlatStructuringElement<3>;
    const Ball ball = Ball::Ball(radius);
    if (kind == SmoothingKind::Opening) {
      auto opening = itk::BinaryMorphologicalOpeningImageFilter<Image, Image, Ball>::New();
      opening->SetInput(input);
      opening->SetKernel(ball);
      opening->SetForegroundValue(1);
      opening->SetBackgroundValue(0);
      detail::updateFilter(opening, progress, "Smoothing (opening)");
      output = opening->GetOutput();
    } else {
      auto closing = itk::BinaryMorphologicalClosingImageFilter<Image, Image, Ball>::New();
      closing->SetInput(input);
      closing->SetKernel(ball);
      closing->SetForegroundValue(1);
      closing->SetSafeBorder(true);
      detail::updateFilter(closing, progress, "Smoothing (closing)");
      output = closing->GetOutput();
    }
  }
  return detail::fromItkImage(*output, imageLo, mask.box, [](std::uint8_t v) { return v != 0; });
}

}  // namespace delineate::annotation
