// Scrolling a tomosynthesis stack in the reading view, one step as MammoViewport::showFrame does
// it on the GUI thread: the frame's pyramid alone (single-frame display, the path before slabs)
// against an average and a maximum-intensity slab of 10 mm (10 frames 1 mm apart) made and then
// pyramided, on a stack of the size a tomosynthesis system reconstructs (2048 x 2560 pixels,
// 50 frames, 16-bit). Median milliseconds over the steps, printed as JSON.
// Usage: tomo_slab_benchmark [--steps 15]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/ImagePyramid.h"
#include "core/mammo/TomoSlab.h"

using namespace delineate;
namespace cm = core::mammo;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kColumns = 2048, kRows = 2560, kFrames = 50;

core::VolumePtr makeStack() {
  core::ImageGeometry g;
  g.size = {kColumns, kRows, kFrames};
  g.spacing = {0.1, 0.1, 1.0};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::UInt16, g.voxelCount());
  std::uint16_t* v = voxels->as<std::uint16_t>();
  std::uint32_t state = 12345;
  for (std::size_t i = 0; i < g.voxelCount(); ++i) {
    state = state * 1664525u + 1013904223u;
    v[i] = static_cast<std::uint16_t>(1000 + (state >> 22));  // 12-bit texture
  }
  return std::make_shared<const core::Volume>(g, std::move(voxels), core::VolumeInfo{});
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 15;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--steps") == 0) {
      steps = std::max(1, std::atoi(argv[++i]));
    }
  }
  const core::VolumePtr stack = makeStack();
  core::NullProgress quiet;
  std::vector<double> frame, average, maximum;
  for (int s = 0; s < steps; ++s) {
    const std::size_t at = 10 + static_cast<std::size_t>(s) % 30;
    auto t0 = Clock::now();
    auto p = cm::ImagePyramid::create(stack, at);
    p->buildLevels(quiet);
    frame.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    for (const cm::SlabMode mode : {cm::SlabMode::Average, cm::SlabMode::Maximum}) {
      t0 = Clock::now();
      const auto [first, last] = cm::slabFrames(at, kFrames, 1.0, 10.0);
      auto slab = cm::ImagePyramid::create(cm::slabOf(*stack, first, last, mode), 0);
      slab->buildLevels(quiet);
      (mode == cm::SlabMode::Average ? average : maximum)
          .push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
  }
  const nlohmann::json out = {
      {"stack", {{"columns", kColumns}, {"rows", kRows}, {"frames", kFrames}}},
      {"steps", steps},
      {"single_frame_ms", bench::rounded(median(frame), 10)},
      {"average_slab_10mm_ms", bench::rounded(median(average), 10)},
      {"maximum_slab_10mm_ms", bench::rounded(median(maximum), 10)},
      {"ratio_average_to_frame", bench::rounded(median(average) / median(frame), 100)}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
