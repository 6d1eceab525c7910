// 4-D images: a time series nibabel wrote is read as frames that share one buffer, each frame
// equal to nibabel's reading; `info` names the fourth dimension; `convert` writes it back as a
// 4-D NIfTI that nibabel reads as the same series; a label map stays on the grid every frame
// shares while the document shows another frame; a DICOM series whose slices repeat at every
// position (pydicom's DCE series) opens as frames.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/document/Document.h"
#include "core/io/DicomFrameSplit.h"
#include "core/io/PathLoader.h"
#include "core/io/VolumeFileIO.h"
#include "core/model/FrameSeries.h"

using namespace delineate::core;
namespace fs = std::filesystem;
using delineate::test::runCommand;
using delineate::test::TempDir;

namespace {

bool nibabelAvailable() {
  return runCommand("/usr/bin/python3 -c 'import numpy, nibabel'") == 0;
}

// The producer's reading of `count` values (reference.f64, float64); empty when the file is short.
std::vector<double> readReference(const fs::path& dir, std::size_t count) {
  std::vector<double> ref(count);
  std::ifstream in(dir / "reference.f64", std::ios::binary);
  in.read(reinterpret_cast<char*>(ref.data()), static_cast<std::streamsize>(count * 8));
  return in.good() ? ref : std::vector<double>{};
}

// nibabel's 4-D time series (4 frames, 2.5 s apart) and its own reading: frames, then x fastest.
std::vector<double> writeTimeSeries(const fs::path& dir) {
  std::string out;
  EXPECT_EQ(runCommand("/usr/bin/python3 " + std::string(DELINEATE_TEST_PRODUCERS) +
                           "/nibabel_cases.py float32-4d-time '" + dir.string() + "'",
                       &out),
            0)
      << out;
  std::vector<double> ref = readReference(dir, 4 * 5 * 6 * 7);
  EXPECT_FALSE(ref.empty()) << "short reference.f64";
  return ref;
}

class FourDimensionalImage : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!nibabelAvailable()) {
      GTEST_SKIP() << "python3-nibabel missing (scripts/install-deps.sh)";
    }
    reference_ = writeTimeSeries(dir_.path());
    ASSERT_EQ(reference_.size(), std::size_t{4 * 5 * 6 * 7});
    NullProgress progress;
    first_ = readVolumeFile(dir_ / "image.nii.gz", progress);
  }

  TempDir dir_;
  std::vector<double> reference_;
  VolumePtr first_;
};

}  // namespace

TEST_F(FourDimensionalImage, EveryFrameIsNibabelsFrameAndTheTimeAxisIsInSeconds) {
  ASSERT_TRUE(first_->info().frames) << "read as a 3-D image";
  const FrameSeries& series = *first_->info().frames;
  ASSERT_EQ(series.count(), 4u);
  EXPECT_EQ(series.axis().name, "time");
  EXPECT_EQ(series.axis().unit, "s");
  ASSERT_EQ(series.axis().values.size(), 4u);
  EXPECT_DOUBLE_EQ(series.axis().values[3], 7.5);
  EXPECT_EQ(series.axis().label(1), "time 2.5 s");
  EXPECT_EQ(first_->geometry().size, (Size3{7, 6, 5}));
  const std::size_t n = 7 * 6 * 5;
  for (std::size_t t = 0; t < 4; ++t) {
    const VolumePtr frame = series.frame(t);
    EXPECT_EQ(frame->info().frameIndex, t);
    const float* p = frame->data<float>();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_FLOAT_EQ(p[i], static_cast<float>(reference_[t * n + i]))
          << "frame " << t << " voxel " << i;
    }
  }
  // The frames are slabs of one buffer, not copies.
  EXPECT_EQ(series.frame(1)->data<float>(), series.frame(0)->data<float>() + n);
  EXPECT_EQ(series.frame(2), series.frame(2)) << "a held frame is returned again";
  // The curve over the frames at one voxel, as a time-intensity plot shows it.
  const std::vector<double> curve = series.valuesAt(3, 2, 1);
  ASSERT_EQ(curve.size(), 4u);
  for (std::size_t t = 0; t < 4; ++t) {
    EXPECT_FLOAT_EQ(static_cast<float>(curve[t]),
                    static_cast<float>(reference_[t * n + 3 + 7 * (2 + 6 * 1)]));
  }
}

TEST_F(FourDimensionalImage, InfoListsTheFourthDimensionAndConvertWritesItBack) {
  std::string out;
  ASSERT_EQ(runCommand(std::string(DELINEATE_CLI) + " info '" + (dir_ / "image.nii.gz").string() +
                           "' 2>/dev/null",
                       &out),
            0)
      << out;
  const auto info = nlohmann::json::parse(out.substr(out.find('{')));
  const auto& frames = info["series"][0]["frames"];
  EXPECT_EQ(frames["count"], 4);
  EXPECT_EQ(frames["dimension"], "time");
  EXPECT_EQ(frames["unit"], "s");

  const fs::path written = dir_ / "converted.nii.gz";
  ASSERT_EQ(runCommand(std::string(DELINEATE_CLI) + " convert '" +
                           (dir_ / "image.nii.gz").string() + "' '" + written.string() + "'",
                       &out),
            0)
      << out;
  EXPECT_NE(out.find("7x6x5x4"), std::string::npos) << out;
  // nibabel reads the same series: shape, frame interval and every value.
  ASSERT_EQ(
      runCommand("/usr/bin/python3 -c \"import nibabel as nib, numpy as np; "
                 "a = nib.load('" +
                     (dir_ / "image.nii.gz").string() +
                     "'); "
                     "b = nib.load('" +
                     written.string() +
                     "'); "
                     "assert b.shape == (7, 6, 5, 4), b.shape; "
                     "assert abs(b.header.get_zooms()[3] - 2.5) < 1e-6, b.header.get_zooms(); "
                     "assert np.array_equal(a.get_fdata(), b.get_fdata())\"",
                 &out),
      0)
      << out;
}

TEST_F(FourDimensionalImage, ALabelMapStaysWhileTheDocumentShowsAnotherFrame) {
  const FrameSeries& series = *first_->info().frames;
  Document document;
  document.setImage(first_);
  auto labels = document.addLabelMap("lesion");
  document.setImageFrame(series.frame(3));
  EXPECT_EQ(document.image()->info().frameIndex, 3u);
  ASSERT_EQ(document.labelMaps().size(), 1u);
  EXPECT_EQ(document.labelMaps().front(), labels);

  // A frame of another grid is no frame of this image.
  ImageGeometry other = first_->geometry();
  other.size = {3, 3, 3};
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Float32, other.voxelCount());
  auto foreign = std::make_shared<const Volume>(other, voxels, VolumeInfo{});
  EXPECT_THROW(document.setImageFrame(foreign), Error);
  EXPECT_EQ(document.image()->info().frameIndex, 3u);
}

// A DCE series written by pydicom, 3 positions x 4 time points: as classic files (one a slice,
// shuffled, told apart by Temporal Position Identifier) and as one enhanced multi-frame file
// whose shuffled frames name their Temporal Position Index; and a diffusion series of b = 0 and
// b = 1000 in three directions (told apart by b-value and gradient direction only). Each opens
// as 4 frames of 3 slices.
class FourDimensionalDicom : public ::testing::TestWithParam<const char*> {};

TEST_P(FourDimensionalDicom, SlicesRepeatingAtEveryPositionAreFramesInTheirTemporalOrder) {
  if (runCommand("/usr/bin/python3 -c 'import numpy, pydicom'") != 0) {
    GTEST_SKIP() << "python3-pydicom missing (scripts/install-deps.sh)";
  }
  TempDir dir;
  std::string out;
  const std::string which = GetParam();
  ASSERT_EQ(runCommand("/usr/bin/python3 " + std::string(DELINEATE_TEST_PRODUCERS) +
                           "/pydicom_cases.py " + which + " '" + dir.path().string() + "'",
                       &out),
            0)
      << out;
  const std::vector<double> ref = readReference(dir.path(), 4 * 3 * 6 * 5);
  ASSERT_FALSE(ref.empty()) << "short reference.f64";

  NullProgress progress;
  const VolumePtr first =
      openPath(dir / (which == "enhanced-dce-4d" ? "enhanced" : "series"), progress).volume;
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->info().frames)
      << "read as 3-D; warnings: "
      << (first->info().warnings.empty() ? std::string() : first->info().warnings.front());
  const FrameSeries& series = *first->info().frames;
  ASSERT_EQ(series.count(), 4u);
  if (which == "dwi-directions") {
    // b = 0, then b = 1000 in three directions: frames by b-value, then direction.
    EXPECT_EQ(series.axis().name, "diffusion b-value");
    EXPECT_EQ(series.axis().values, (std::vector<double>{0, 1000, 1000, 1000}));
    EXPECT_EQ(series.axis().label(3), "diffusion b-value 1000 s/mm²");
  } else {
    EXPECT_EQ(series.axis().name, "time point");
    EXPECT_EQ(series.axis().label(2), "time point 3");
  }
  EXPECT_EQ(first->geometry().size, (Size3{5, 6, 3}));
  EXPECT_NEAR(first->geometry().spacing[2], 2.5, 1e-6);
  for (const auto& w : first->info().warnings) {
    EXPECT_EQ(w.find("share a position"), std::string::npos) << w;
  }
  const std::size_t n = 3 * 6 * 5;
  for (std::size_t t = 0; t < 4; ++t) {
    const VolumePtr frame = series.frame(t);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_DOUBLE_EQ(frame->valueAt(i % 5, (i / 5) % 6, i / 30), ref[t * n + i])
          << "frame " << t << " voxel " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Producers, FourDimensionalDicom,
                         ::testing::Values("dce-4d-series", "enhanced-dce-4d", "dwi-directions"),
                         [](const auto& info) {
                           const std::string p = info.param;
                           return p == "dce-4d-series"     ? "ClassicFiles"
                                  : p == "enhanced-dce-4d" ? "EnhancedMultiFrame"
                                                           : "DiffusionDirections";
                         });

TEST(DicomFrameSplit, TellsTheRepeatsApartByTheFirstKeyThatDiffersAtEveryPosition) {
  std::vector<DicomSlicePlacement> slices;
  std::vector<DicomFrameKeys> keys;
  for (int z = 0; z < 3; ++z) {
    for (int echo = 0; echo < 2; ++echo) {
      DicomSlicePlacement p;
      p.position = Vec3{0, 0, 2.0 * z};
      p.orientation = std::array<double, 6>{1, 0, 0, 0, 1, 0};
      slices.push_back(p);
      DicomFrameKeys k;
      k.echoTime = echo == 0 ? 12.0 : 4.5;  // the same at every position: it tells them apart
      k.acquisitionSeconds = 100.0 + z;     // differs per position, not per echo
      keys.push_back(k);
    }
  }
  const auto split = splitDicomFrames(slices, keys);
  ASSERT_TRUE(split);
  EXPECT_EQ(split->axis.name, "echo time");
  EXPECT_EQ(split->axis.values, (std::vector<double>{4.5, 12.0}));
  ASSERT_EQ(split->frames.size(), 2u);
  for (std::size_t i : split->frames[0]) {
    EXPECT_EQ(*keys[i].echoTime, 4.5);
  }
  // Without a key that differs, or with a position holding fewer repeats, nothing is split.
  for (auto& k : keys) {
    k.echoTime.reset();
  }
  EXPECT_FALSE(splitDicomFrames(slices, keys));
  keys.pop_back();
  slices.pop_back();
  EXPECT_FALSE(splitDicomFrames(slices, keys));
  EXPECT_EQ(dicomTimeSeconds("120010.5"), 12 * 3600 + 10.5);
  EXPECT_EQ(dicomTimeSeconds("12:00:10"), 12 * 3600 + 10.0);
  EXPECT_FALSE(dicomTimeSeconds("noon"));
  // Found by fuzzing: digits, then not (this threw std::invalid_argument out of the scan).
  EXPECT_FALSE(dicomTimeSeconds("1ERIVED"));
  EXPECT_FALSE(dicomTimeSeconds("12:3"));
  EXPECT_EQ(dicomTimeSeconds("12"), 12 * 3600.0);
}

// NIfTI-2 (which ITK 5.2 does not read), big-endian floats, 3 frames 500 ms apart.
TEST(FourDimensionalNifti2, ABigEndianNifti2SeriesIsReadWithItsTimeAxis) {
  if (!nibabelAvailable()) {
    GTEST_SKIP() << "python3-nibabel missing (scripts/install-deps.sh)";
  }
  TempDir dir;
  std::string out;
  ASSERT_EQ(
      runCommand("/usr/bin/python3 " + std::string(DELINEATE_TEST_PRODUCERS) +
                     "/nibabel_cases.py nifti2-float32-4d-big-endian '" + dir.path().string() + "'",
                 &out),
      0)
      << out;
  const std::vector<double> ref = readReference(dir.path(), 3 * 5 * 6 * 7);
  ASSERT_FALSE(ref.empty()) << "short reference.f64";
  NullProgress progress;
  const VolumePtr first = readVolumeFile(dir / "image.nii.gz", progress);
  EXPECT_EQ(first->info().transferSyntax, "NIfTI-2");
  ASSERT_TRUE(first->info().frames);
  const FrameSeries& series = *first->info().frames;
  ASSERT_EQ(series.count(), 3u);
  EXPECT_EQ(series.axis().label(1), "time 0.5 s");
  const std::size_t n = 7 * 6 * 5;
  for (std::size_t t = 0; t < 3; ++t) {
    const float* p = series.frame(t)->data<float>();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_FLOAT_EQ(p[i], static_cast<float>(ref[t * n + i])) << "frame " << t << " voxel " << i;
    }
  }
}
