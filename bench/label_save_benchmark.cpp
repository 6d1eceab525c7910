// Saving a label map as .nii.gz: the project's NIfTI writer (core/io/NiftiWriter: ISA-L deflate
// level 1, written in slabs with progress and Cancel) against ITK's ImageFileWriter (zlib level
// 1, what the project used before) on the same map in the same run. The map is the abdominal CT
// sample's ground truth (liver, spleen, kidneys, lesions, ribs) on a 512x512x500 grid by default.
// Best wall time of --repeat alternating runs, file sizes, and both files read back identical.
// Usage: label_save_benchmark [--size 512x512x500] [--repeat 3] [--dir DIR]
#include <itkImageFileWriter.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/ItkInit.h"
#include "core/io/ItkView.h"
#include "core/io/NiftiWriter.h"
#include "core/io/VolumeFileIO.h"
#include "core/sample/SampleCase.h"

namespace fs = std::filesystem;
using namespace delineate;

namespace {

double secondsOf(const std::function<void()>& f) {
  const auto t = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void writeWithItk(const core::Volume& labels, const fs::path& path) {
  auto writer = itk::ImageFileWriter<itk::Image<std::uint16_t, 3>>::New();
  writer->SetInput(core::itkImageView<std::uint16_t>(labels));
  writer->SetFileName(path.string());
  writer->SetUseCompression(true);
  writer->SetCompressionLevel(1);
  writer->Update();
}

}  // namespace

int main(int argc, char** argv) {
  core::Size3 size{512, 512, 500};
  int repeat = 3;
  fs::path dir = fs::temp_directory_path() / "delineate-label-save-bench";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--size") {
      std::sscanf(argv[i + 1], "%zux%zux%zu", &size[0], &size[1], &size[2]);
    } else if (a == "--repeat") {
      repeat = std::max(1, std::atoi(argv[i + 1]));
    } else if (a == "--dir") {
      dir = argv[i + 1];
    }
  }
  core::ensureItkInitialized();
  fs::create_directories(dir);
  const core::sample::SampleCase c = core::sample::makeAbdomenCt(20261121, size);
  const core::Volume& labels = *c.labels;
  const fs::path ours = dir / "ours.nii.gz", itk = dir / "itk.nii.gz";
  double bestOurs = 1e9, bestItk = 1e9;
  for (int r = 0; r < repeat; ++r) {
    core::NullProgress progress;
    bestOurs = std::min(bestOurs, secondsOf([&] { core::writeNiftiFile(labels, ours, progress); }));
    bestItk = std::min(bestItk, secondsOf([&] { writeWithItk(labels, itk); }));
  }
  core::NullProgress progress;
  const core::VolumePtr a = core::readVolumeFile(ours, progress);
  const core::VolumePtr b = core::readVolumeFile(itk, progress);
  const bool same = a->geometry().sameGrid(b->geometry()) &&
                    std::memcmp(a->voxels().data(), b->voxels().data(), a->voxels().bytes()) == 0;
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  const nlohmann::json out = {
      {"benchmark", "label_save"},
      {"grid",
       std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" + std::to_string(size[2])},
      {"voxel_mb", double(labels.voxels().bytes()) / 1e6},
      {"ours", {{"seconds", bestOurs}, {"file_mb", double(fs::file_size(ours)) / 1e6}}},
      {"itk_zlib_level1", {{"seconds", bestItk}, {"file_mb", double(fs::file_size(itk)) / 1e6}}},
      {"ratio_ours_to_itk", bestOurs / bestItk},
      {"read_back_identical", same},
      {"peak_rss_mb", double(ru.ru_maxrss) / 1024.0}};
  std::printf("%s\n", out.dump(2).c_str());
  fs::remove_all(dir);
  return same ? 0 : 1;
}
