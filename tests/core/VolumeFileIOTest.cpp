#include "core/io/VolumeFileIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <numbers>

#include "TempDir.h"
#include "core/Error.h"

using namespace delineate::core;
using delineate::test::TempDir;

namespace {

VolumePtr makeRamp(ScalarType type = ScalarType::Int16) {
  ImageGeometry g;
  g.size = {7, 5, 3};
  g.spacing = {0.7, 0.9, 2.5};
  g.origin = {-12.5, 30, 4};
  // Oblique but orthonormal: rotated 30 degrees about z.
  const double c = std::cos(std::numbers::pi / 6), s = std::sin(std::numbers::pi / 6);
  g.direction = {c, -s, 0, s, c, 0, 0, 0, 1};
  auto voxels = std::make_shared<VoxelBuffer>(type, g.voxelCount());
  dispatchScalar(type, [&](auto t) {
    using T = decltype(t);
    T* p = voxels->as<T>();
    for (std::size_t n = 0; n < voxels->count(); ++n) {
      p[n] = static_cast<T>(static_cast<int>(n % 120) - 20);
    }
  });
  return std::make_shared<const Volume>(g, voxels, VolumeInfo{});
}

void expectSameVolume(const Volume& a, const Volume& b) {
  EXPECT_EQ(a.geometry().differenceFrom(b.geometry(), 1e-5), "");
  ASSERT_EQ(a.scalarType(), b.scalarType());
  ASSERT_EQ(a.voxels().bytes(), b.voxels().bytes());
  EXPECT_EQ(0, std::memcmp(a.voxels().data(), b.voxels().data(), a.voxels().bytes()));
}

}  // namespace

class VolumeFileRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(VolumeFileRoundTrip, VoxelsAndGeometrySurvive) {
  TempDir dir;
  NullProgress progress;
  for (ScalarType type : {ScalarType::Int16, ScalarType::UInt16, ScalarType::Float32}) {
    const auto original = makeRamp(type);
    const auto path = dir / (std::string("ramp") + GetParam());
    writeVolumeFile(*original, path);
    const auto loaded = readVolumeFile(path, progress);
    expectSameVolume(*original, *loaded);
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, VolumeFileRoundTrip,
                         ::testing::Values(".nii", ".nii.gz", ".nrrd", ".mha"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s) {
                             if (c == '.') {
                               c = '_';
                             }
                           }
                           return s;
                         });

TEST(VolumeFileIO, TruncatedNiftiNamesTheFile) {
  TempDir dir;
  NullProgress progress;
  const auto path = dir / "cut.nii";
  writeVolumeFile(*makeRamp(), path);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 40);
  try {
    readVolumeFile(path, progress);
    FAIL() << "truncated file was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), path.string());
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

TEST(VolumeFileIO, HugeHeaderIsRefusedWithoutAllocating) {
  TempDir dir;
  NullProgress progress;
  const auto path = dir / "huge.nii";
  writeVolumeFile(*makeRamp(), path);
  // Patch dim[1..3] of the NIfTI-1 header (offset 40: short dim[8]) to 65535 x 65535 x 32767.
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  const std::int16_t dims[4] = {3, -1, -1, 32767};  // -1 as int16 is read back as 65535? no: kept
  f.seekp(40);
  f.write(reinterpret_cast<const char*>(dims), sizeof(dims));
  f.close();
  EXPECT_THROW(readVolumeFile(path, progress), Error);
}

TEST(VolumeFileIO, NonImageFileGivesAClearMessage) {
  TempDir dir;
  NullProgress progress;
  const auto path = dir / "notes.nii.gz";
  std::ofstream(path) << "this is not an image";
  try {
    readVolumeFile(path, progress);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), path.string());
  }
  EXPECT_THROW(readVolumeFile(dir / "missing.nii", progress), Error);
}

TEST(VolumeFileIO, FailedWriteKeepsThePreviousFile) {
  TempDir dir;
  const auto path = dir / "keep.nrrd";
  const auto original = makeRamp();
  writeVolumeFile(*original, path);
  const auto before = std::filesystem::file_size(path);
  EXPECT_THROW(writeVolumeFile(*original, dir / "nothere" / "x.nrrd"), Error);
  EXPECT_THROW(writeVolumeFile(*original, dir / "keep.nhdr"), Error);
  EXPECT_EQ(std::filesystem::file_size(path), before);
  // No temporaries are left behind.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST(VolumeFileIO, CompressedNiftiTakesTheFastPathAndDetectsTruncation) {
  TempDir dir;
  NullProgress progress;
  const auto path = dir / "ramp.nii.gz";
  const auto original = makeRamp(ScalarType::UInt16);
  writeVolumeFile(*original, path);
  const auto loaded = readVolumeFile(path, progress);
  EXPECT_NE(loaded->info().transferSyntax.find("ISA-L"), std::string::npos);
  expectSameVolume(*original, *loaded);

  std::filesystem::resize_file(path, std::filesystem::file_size(path) * 2 / 3);
  try {
    readVolumeFile(path, progress);
    FAIL() << "truncated .nii.gz was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), path.string());
  }
}
