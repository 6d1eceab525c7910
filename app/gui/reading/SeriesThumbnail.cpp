#include "app/gui/reading/SeriesThumbnail.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "core/io/DicomSeriesLoader.h"
#include "viewers/SliceGeometry.h"
#include "viewers/WindowLevel.h"

namespace delineate::app {

using viewers::SliceOrientation;

namespace {

SliceOrientation thumbnailOrientation(const core::ImageGeometry& g) {
  for (int a = 0; a < 3; ++a) {
    if (g.size[a] == 1) {
      // A single slice: look at it face on.
      const core::Vec3 axis = g.axis(a);
      SliceOrientation best = SliceOrientation::Axial;
      double bestDot = -1;
      for (SliceOrientation o :
           {SliceOrientation::Axial, SliceOrientation::Coronal, SliceOrientation::Sagittal}) {
        const double d = std::abs(core::dot(axis, viewers::sliceAxes(o).normal));
        if (d > bestDot) {
          bestDot = d;
          best = o;
        }
      }
      return best;
    }
  }
  return SliceOrientation::Axial;
}

}  // namespace

QImage makeSeriesThumbnail(const core::Volume& volume, int size) {
  const auto& g = volume.geometry();
  const bool colour = volume.hasColour();
  QImage image(size, size, colour ? QImage::Format_RGB888 : QImage::Format_Grayscale8);
  image.fill(0);
  if (g.voxelCount() == 0) {
    return image;
  }
  const SliceOrientation o = thumbnailOrientation(g);
  const viewers::SliceAxes axes = viewers::sliceAxes(o);
  const auto b = viewers::screenBounds(g, o);
  const double mmPerPixel = std::max(b[1] - b[0], b[3] - b[2]) / size;
  const double cu = (b[0] + b[1]) / 2;
  const double cv = (b[2] + b[3]) / 2;
  const core::Vec3 centre = g.indexToWorld({(static_cast<double>(g.size[0]) - 1) / 2,
                                            (static_cast<double>(g.size[1]) - 1) / 2,
                                            (static_cast<double>(g.size[2]) - 1) / 2});
  const double s = core::dot(centre, axes.normal);
  const viewers::WindowLevel wl = viewers::defaultWindow(volume);
  const double lo = wl.center - wl.width / 2;
  for (int y = 0; y < size; ++y) {
    uchar* line = image.scanLine(y);
    for (int x = 0; x < size; ++x) {
      const double u = cu + (x + 0.5 - size / 2.0) * mmPerPixel;
      const double v = cv - (y + 0.5 - size / 2.0) * mmPerPixel;
      core::Vec3 p{};
      for (int a = 0; a < 3; ++a) {
        p[a] = u * axes.right[a] + v * axes.up[a] + s * axes.normal[a];
      }
      if (!viewers::containsVoxel(g, p)) {
        continue;
      }
      const auto ijk = viewers::nearestVoxel(g, p);
      const auto i = static_cast<std::size_t>(ijk[0]);
      const auto j = static_cast<std::size_t>(ijk[1]);
      const auto k = static_cast<std::size_t>(ijk[2]);
      auto level = [&](double value) {
        return static_cast<uchar>(std::clamp((value - lo) / wl.width * 255.0, 0.0, 255.0));
      };
      if (colour) {
        const auto rgb = volume.colourAt(i, j, k);  // the window applies to each channel
        for (int c = 0; c < 3; ++c) {
          line[3 * x + c] = level(rgb[static_cast<std::size_t>(c)]);
        }
      } else {
        line[x] = level(volume.valueAt(i, j, k));
      }
    }
  }
  if (volume.info().photometric == "MONOCHROME1" && !colour) {
    image.invertPixels();
  }
  return image;
}

std::vector<QImage> makeDicomThumbnails(const std::vector<core::DicomSeries>& series,
                                        core::ProgressSink& progress, int size) {
  std::vector<QImage> out;
  for (std::size_t i = 0; i < series.size(); ++i) {
    progress.throwIfCancelled();
    progress.report(static_cast<double>(i) / static_cast<double>(series.size()), "Thumbnails");
    core::DicomSeries middle = series[i];
    if (!middle.files.empty()) {
      middle.files = {middle.files[middle.files.size() / 2]};
      middle.frames = 1;
    }
    try {
      core::NullProgress quiet(core::CancelToken{});
      out.push_back(makeSeriesThumbnail(*core::loadDicomSeries(middle, quiet), size));
    } catch (const core::CancelledError&) {
      throw;
    } catch (const std::exception&) {
      out.emplace_back();
    }
  }
  return out;
}

}  // namespace delineate::app
