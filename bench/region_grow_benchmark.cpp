// Region grow (flood fill) of the liver in a 512x512x500 abdominal CT, ours (scanline fill,
// annotation/ops/RegionGrow) against itk::ConnectedThresholdImageFilter, printed as JSON.
// The CT is made once (core::sample::makeAbdomenCt) and cached as raw int16 in --dir; each
// measurement runs in a fresh child process that reads it back, so its peak RSS (getrusage) is
// its own: the volume's bytes plus what the fill needs. The range is the region-grow tool's
// automatic one: mean +- 2.5 SD of the 5x5x5 neighbourhood of the seed, world (-70, -5, 45) in
// the liver. Best wall time of --repeat runs.
// Usage: region_grow_benchmark [--dir DIR] [--size 512x512x500] [--repeat 3]
#include "ChildProcess.h"

#include <itkConnectedThresholdImageFilter.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "annotation/ops/RegionGrow.h"
#include "core/io/ItkView.h"
#include "core/sample/SampleCase.h"

namespace fs = std::filesystem;
using namespace delineate;
using nlohmann::json;

namespace {

using bench::now;

using bench::peakRssMb;
using bench::rssMb;

// --- the child: load the raw CT, run one fill, print one JSON line ---

int childMain(const std::string& what, const fs::path& dir) {
  const json meta = json::parse(std::ifstream(dir / "meta.json"));
  core::ImageGeometry g;
  for (int a = 0; a < 3; ++a) {
    g.size[a] = meta["size"][a];
  }
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  std::ifstream(dir / "ct.raw", std::ios::binary)
      .read(static_cast<char*>(voxels->data()), std::streamsize(voxels->bytes()));
  const core::Volume image(g, voxels, {});
  const core::Size3 seed{meta["seed"][0], meta["seed"][1], meta["seed"][2]};
  const double lo = meta["lo"], hi = meta["hi"];
  const double rssBefore = rssMb();

  std::size_t count = 0;
  double seconds = 0;
  if (what == "ours" || what == "ours-2d") {
    core::NullProgress progress;
    const std::optional<int> axis = what == "ours-2d" ? std::optional<int>(2) : std::nullopt;
    const double t0 = now();
    const annotation::BoxMask mask = annotation::regionGrow(image, seed, lo, hi, axis, progress);
    seconds = now() - t0;
    count = mask.count();
  } else {
    using In = itk::Image<std::int16_t, 3>;
    using Out = itk::Image<std::uint8_t, 3>;
    auto filter = itk::ConnectedThresholdImageFilter<In, Out>::New();
    filter->SetInput(core::itkImageView<std::int16_t>(image));
    In::IndexType index;
    for (unsigned a = 0; a < 3; ++a) {
      index[a] = long(seed[a]);
    }
    filter->SetSeed(index);
    // Integer bounds equal to [lo, hi] on int16 (what ours compares with).
    filter->SetLower(std::int16_t(std::ceil(lo)));
    filter->SetUpper(std::int16_t(std::floor(hi)));
    filter->SetReplaceValue(1);
    const double t0 = now();
    filter->Update();
    seconds = now() - t0;
    const std::uint8_t* out = filter->GetOutput()->GetBufferPointer();
    for (std::size_t n = 0; n < g.voxelCount(); ++n) {
      count += out[n];
    }
  }
  std::printf("%s\n", json{{"seconds", seconds},
                           {"voxels", count},
                           {"rss_before_mb", rssBefore},
                           {"peak_rss_mb", peakRssMb()}}
                          .dump()
                          .c_str());
  return 0;
}

json best(int repeat, const std::string& self, const std::string& what, const fs::path& dir) {
  json b;
  for (int r = 0; r < repeat; ++r) {
    const json m = bench::runJsonChild(self, what, dir);
    if (b.is_null() || (m["ok"] && double(m["seconds"]) < double(b["seconds"]))) {
      b = m;
    }
  }
  b["seconds"] = std::round(double(b["seconds"]) * 10000) / 10000;
  b["peak_rss_mb"] = std::round(double(b["peak_rss_mb"]));
  b["extra_rss_mb"] = std::round(double(b["peak_rss_mb"]) - double(b["rss_before_mb"]));
  b.erase("rss_before_mb");
  return b;
}

void prepare(const fs::path& dir, const core::Size3& size) {
  if (fs::exists(dir / ".complete")) {
    return;
  }
  std::fprintf(stderr, "preparing %zux%zux%zu CT in %s ...\n", size[0], size[1], size[2],
               dir.c_str());
  fs::create_directories(dir);
  const auto ct = core::sample::makeAbdomenCt(7, size);
  const core::ImageGeometry& g = ct.image->geometry();
  const core::Vec3 ijk = g.worldToIndex({-70, -5, 45});  // inside the liver
  const core::Size3 seed{std::size_t(std::lround(ijk[0])), std::size_t(std::lround(ijk[1])),
                         std::size_t(std::lround(ijk[2]))};
  const auto [lo, hi] = annotation::neighbourhoodRange(*ct.image, seed, 2, 2.5);
  std::ofstream(dir / "ct.raw", std::ios::binary)
      .write(static_cast<const char*>(ct.image->voxels().data()),
             std::streamsize(ct.image->voxels().bytes()));
  std::ofstream(dir / "meta.json") << json{
      {"size", {size[0], size[1], size[2]}},
      {"spacing", {g.spacing[0], g.spacing[1], g.spacing[2]}},
      {"seed", {seed[0], seed[1], seed[2]}},
      {"lo", lo},
      {"hi", hi}}.dump();
  std::ofstream(dir / ".complete") << "ok\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "--child") {
    return childMain(argv[2], argv[3]);
  }
  const bench::VolumeBenchArgs args =
      bench::parseVolumeBenchArgs(argc, argv, "delineate-bench-region-grow");
  const fs::path dir = args.dir;
  const core::Size3 size = args.size;
  const int repeat = args.repeat;
  // Prepare in a child, so this process stays small for the forks that follow.
  bench::runInChild([&] { prepare(dir, size); });
  const json meta = json::parse(std::ifstream(dir / "meta.json"));
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const json ours = best(repeat, self, "ours", dir);
  const json itk = best(repeat, self, "itk", dir);
  const json ours2d = best(repeat, self, "ours-2d", dir);
  const double voxelMb = double(size[0] * size[1] * size[2] * 2) / (1024.0 * 1024.0);
  const double ratio =
      double(itk["seconds"]) > 0 ? double(ours["seconds"]) / double(itk["seconds"]) : 0;
  const json out{
      {"benchmark", "region_grow"},
      {"volume", {{"size", {size[0], size[1], size[2]}}, {"voxel_mb", std::round(voxelMb)}}},
      {"seed", meta["seed"]},
      {"range", {meta["lo"], meta["hi"]}},
      {"repeat", repeat},
      {"results", {{"ours_3d", ours}, {"itk_connected_threshold", itk}, {"ours_2d_slice", ours2d}}},
      {"same_voxels", ours["voxels"] == itk["voxels"]},
      {"ratios",
       {{"ours_vs_itk_seconds (target <= 2)", std::round(ratio * 1000) / 1000},
        {"ours_vs_itk_extra_rss",
         double(itk["extra_rss_mb"]) > 0
             ? std::round(double(ours["extra_rss_mb"]) / double(itk["extra_rss_mb"]) * 100) / 100
             : 0.0}}}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
