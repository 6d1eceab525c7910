// Colour DICOM that other producers wrote: DCMTK's img2dcm, dcmconv, dcmcrle, dcmcjpeg and
// dcmcjpls, GDCM's gdcmconv, pydicom, and the test files Debian's python3-pydicom ships (written
// by DCMTK, GDCM and others). Each is read by Delineate and every pixel's R, G, B compared with
// the producer's own decoding (tests/producers/colour_cases.py); the luminance the tools work on
// is checked against the displayed colour. docs/reading.md's conformance table lists the cases.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "RunCommand.h"
#include "TempDir.h"
#include "core/io/PathLoader.h"
#include "core/io/VolumeFileIO.h"
#include "core/model/FrameSeries.h"
#include "core/sample/UltrasoundCineSample.h"

using namespace delineate::core;
namespace fs = std::filesystem;

namespace {

bool producersAvailable() {
  return delineate::test::runCommand(
             "/usr/bin/python3 -c 'import numpy, pydicom' && command -v img2dcm && "
             "command -v gdcmconv") == 0;
}

class ColourConformance : public ::testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(ColourConformance, EveryPixelMatchesTheProducersOwnDecoding) {
  if (!producersAvailable()) {
    GTEST_SKIP() << "python3-pydicom, dcmtk or libgdcm-tools missing (scripts/install-deps.sh)";
  }
  delineate::test::TempDir dir;
  const std::string name = GetParam();
  const std::string script = std::string(DELINEATE_TEST_PRODUCERS) + "/colour_cases.py";
  std::string out;
  ASSERT_EQ(delineate::test::runCommand(
                "/usr/bin/python3 " + script + " " + name + " '" + dir.path().string() + "'", &out),
            0)
      << out;
  std::size_t frames = 0, rows = 0, columns = 0;
  std::ifstream(dir.path() / "reference.txt") >> frames >> rows >> columns;
  std::vector<std::uint32_t> ref(frames * rows * columns * 3);
  std::ifstream data(dir.path() / "reference.u32", std::ios::binary);
  data.read(reinterpret_cast<char*>(ref.data()),
            static_cast<std::streamsize>(ref.size() * sizeof(std::uint32_t)));
  ASSERT_TRUE(data.good());

  NullProgress progress;
  const OpenedPath opened = openPath(dir.path() / "image.dcm", progress);
  ASSERT_TRUE(opened.volume);
  ASSERT_TRUE(opened.volume->hasColour()) << name << " opened as a grey image";
  ASSERT_EQ(opened.volume->geometry().size[0], columns);
  ASSERT_EQ(opened.volume->geometry().size[1], rows);

  // A cine loop is a 4-D image of one-slice frames; other multi-frame files stack as slices.
  std::vector<VolumePtr> images;
  if (const auto& series = opened.volume->info().frames) {
    for (std::size_t f = 0; f < series->count(); ++f) {
      images.push_back(series->frame(f));
    }
  } else {
    images.push_back(opened.volume);
  }
  std::size_t slices = 0;
  for (const auto& v : images) {
    slices += v->geometry().size[2];
  }
  ASSERT_EQ(slices, frames);

  std::size_t wrong = 0, darkLuminance = 0, at = 0;
  for (const auto& v : images) {
    for (std::size_t k = 0; k < v->geometry().size[2]; ++k) {
      for (std::size_t j = 0; j < rows; ++j) {
        for (std::size_t i = 0; i < columns; ++i, at += 3) {
          const auto rgb = v->colourAt(i, j, k);
          for (std::size_t c = 0; c < 3; ++c) {
            if (rgb[c] != ref[at + c] && ++wrong <= 5) {
              ADD_FAILURE() << name << ": pixel (" << i << ", " << j << ") of slice " << at / 3
                            << " channel " << c << " is " << rgb[c] << ", the producer reads "
                            << ref[at + c];
            }
          }
          const double y = std::floor(0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] + 0.5);
          darkLuminance += v->valueAt(i, j, k) != y;
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0u) << "of " << ref.size() << " samples";
  EXPECT_EQ(darkLuminance, 0u) << "voxels whose luminance is not 0.299 R + 0.587 G + 0.114 B";

  std::ifstream frameTime(dir.path() / "frame-time.txt");
  double ms = 0;
  if (frameTime >> ms) {
    const auto& series = opened.volume->info().frames;
    ASSERT_TRUE(series) << "a cine loop opens as a 4-D image";
    EXPECT_EQ(series->axis().name, "time");
    ASSERT_EQ(series->axis().values.size(), frames);
    EXPECT_NEAR(series->axis().values[1] - series->axis().values[0], ms / 1000.0, 1e-9);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, ColourConformance,
    ::testing::Values("img2dcm-rgb", "dcmconv-rgb-big-endian", "dcmcrle-rgb",
                      "dcmcjpeg-baseline-ybr422", "dcmcjpeg-lossless-rgb",
                      "dcmcjpeg-progressive-rgb", "dcmcjpls-rgb", "gdcmconv-j2k-rgb",
                      "gdcmconv-jpeg-rgb", "gdcmconv-rle-rgb", "pydicom-ybr-full-planar",
                      "pydicom-us-cine", "pydicom-palette-hotiron",
                      "pydicom-palette-segmented-winter", "pydicom-palette-16bit",
                      "shipped-ybr-full-422-uncompressed", "shipped-rgb-rle-16bit-2frame",
                      "shipped-rgb-rle-32bit", "shipped-rgb-big-endian", "shipped-dcmtk-ybr-full",
                      "shipped-jpeg-gdcm", "shipped-j2k-gdcm-text"),
    [](const auto& info) {
      std::string name = info.param;
      for (char& c : name) {
        if (c == '-') {
          c = '_';
        }
      }
      return name;
    });

TEST(ColourConvert, TheCineBecomesAnRgbNiftiThatNibabelReadsAndAnRgbNrrd) {
  if (!producersAvailable()) {
    GTEST_SKIP() << "python3-nibabel missing (scripts/install-deps.sh)";
  }
  delineate::test::TempDir dir;
  sample::writeUltrasoundCine(dir.path() / "cine.dcm", 5);
  NullProgress progress;
  const VolumePtr v = openPath(dir.path() / "cine.dcm", progress).volume;
  ASSERT_TRUE(v && v->hasColour() && v->info().frames);
  // Channel sums over every frame, as nibabel must find them.
  double sums[3] = {0, 0, 0};
  const auto& series = *v->info().frames;
  for (std::size_t f = 0; f < series.count(); ++f) {
    const auto frame = series.frame(f);
    const auto& g = frame->geometry();
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        const auto rgb = frame->colourAt(i, j, 0);
        for (int c = 0; c < 3; ++c) {
          sums[c] += rgb[static_cast<std::size_t>(c)];
        }
      }
    }
  }
  const fs::path nii = dir.path() / "cine.nii.gz";
  writeVolumeFile(*v, nii, true, /*allFrames=*/true);
  std::string out;
  ASSERT_EQ(delineate::test::runCommand(
                "/usr/bin/python3 -c \"import nibabel as nib, numpy as np; "
                "a = np.asanyarray(nib.load('" +
                    nii.string() +
                    "').dataobj); "
                    "print(a.shape, a.dtype.names, *[int(a[c].astype(np.int64).sum()) for c in "
                    "'RGB'])\"",
                &out),
            0)
      << out;
  const auto& g = v->geometry();
  std::ostringstream expected;
  expected << "(" << g.size[0] << ", " << g.size[1] << ", 1, " << series.count()
           << ") ('R', 'G', 'B') " << static_cast<long long>(sums[0]) << " "
           << static_cast<long long>(sums[1]) << " " << static_cast<long long>(sums[2]);
  EXPECT_NE(out.find(expected.str()), std::string::npos) << out << "\nexpected " << expected.str();

  // NRRD: one frame, RGB-color kind, three bytes a voxel.
  const fs::path nrrd = dir.path() / "frame.nrrd";
  writeVolumeFile(*v, nrrd, false);
  std::ifstream in(nrrd, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("RGB-color"), std::string::npos) << text.substr(0, 300);
  EXPECT_GE(text.size(), 3 * g.voxelCount());

  // Both open again in colour, every channel as written.
  for (const fs::path& file : {nii, nrrd}) {
    const VolumePtr back = readVolumeFile(file, progress);
    ASSERT_TRUE(back->hasColour()) << file;
    ASSERT_EQ(back->geometry().size, g.size);
    std::size_t differ = 0;
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        differ += back->colourAt(i, j, 0) != v->colourAt(i, j, 0);
        differ += back->valueAt(i, j, 0) != v->valueAt(i, j, 0);
      }
    }
    EXPECT_EQ(differ, 0u) << file;
  }
  EXPECT_EQ(readVolumeFile(nii, progress)->info().frames->count(), series.count());
}
