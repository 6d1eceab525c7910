// NIfTI written by the project's own writer and read back through ITK: every scalar type on an
// oblique, anisotropic, left-handed grid gives the same grid and the same voxels, .nii and
// .nii.gz; Cancel leaves the previous file as it was; a disk that refuses more bytes is an
// Error naming the file, and nothing half-written is left behind.
#include "core/io/NiftiWriter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "DicomTestSupport.h"
#include "FileSizeLimit.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/Nifti2Reader.h"
#include "core/io/VolumeFileIO.h"

using namespace delineate::core;
using delineate::test::fixedInfo;
using delineate::test::makeVolume;
using delineate::test::TempDir;
namespace fs = std::filesystem;

namespace {

// Rotated about an oblique axis, anisotropic, and with the third axis flipped (a left-handed
// voxel order, which NIfTI stores with qfac -1).
ImageGeometry awkwardGrid() {
  ImageGeometry g;
  g.size = {19, 13, 7};
  g.spacing = {0.6, 0.9, 3.0};
  g.origin = {-40.25, 17.5, -102};
  const double c = std::cos(0.4), s = std::sin(0.4);
  // Rotation about z, then about x by the same angle; the last column negated.
  g.direction = {c, -s * c, -s * s, s, c * c, c * s, 0, -s, c};
  for (int row = 0; row < 3; ++row) {
    g.direction[std::size_t(row * 3 + 2)] *= -1;
  }
  return g;
}

class CountingProgress : public ProgressSink {
 public:
  void report(double, std::string_view) override { ++reports; }
  bool cancelled() const override { return reports >= cancelAfter; }
  int reports = 0;
  int cancelAfter = 1 << 30;
};

}  // namespace

TEST(NiftiWriter, EveryTypeReadsBackThroughItkOnTheSameGrid) {
  TempDir dir;
  const ImageGeometry g = awkwardGrid();
  for (ScalarType type :
       {ScalarType::UInt8, ScalarType::Int8, ScalarType::UInt16, ScalarType::Int16,
        ScalarType::UInt32, ScalarType::Int32, ScalarType::Float32, ScalarType::Float64}) {
    const VolumePtr v =
        makeVolume(type, g, fixedInfo("MR"), [](std::size_t i, std::size_t j, std::size_t k) {
          return double((i * 3 + j * 5 + k * 7) % 100);
        });
    for (const char* name : {"v.nii", "v.nii.gz"}) {
      SCOPED_TRACE(std::string(toString(type)) + " " + name);
      NullProgress progress;
      writeNiftiFile(*v, dir / name, progress);
      const VolumePtr back = readVolumeFile(dir / name, progress);
      EXPECT_EQ(back->scalarType(), type);
      EXPECT_EQ(back->geometry().differenceFrom(g), "");
      ASSERT_EQ(back->voxels().bytes(), v->voxels().bytes());
      EXPECT_EQ(std::memcmp(back->voxels().data(), v->voxels().data(), v->voxels().bytes()), 0);
    }
  }
  EXPECT_LT(fs::file_size(dir / "v.nii.gz"), fs::file_size(dir / "v.nii"));
}

TEST(NiftiWriter, CancelLeavesThePreviousFileAsItWas) {
  TempDir dir;
  ImageGeometry g;
  g.size = {256, 256, 160};  // 20 MB of uint16: several slabs
  LabelMap map("big", g);
  map.mutableData()[12345] = 3;
  const fs::path file = dir / "labels.nii.gz";
  writeLabelMapFiles(map, file);
  const auto before = fs::file_size(file);
  map.mutableData()[54321] = 4;
  CountingProgress cancel;
  cancel.cancelAfter = 2;
  EXPECT_THROW(writeLabelMapFiles(map, file, cancel), CancelledError);
  EXPECT_EQ(fs::file_size(file), before);
  EXPECT_EQ(readLabelMapFiles(file).data()[54321], 0) << "the previous file";
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) {
    ++entries;
  }
  EXPECT_EQ(entries, 2u) << "the label file and its segment table; no temporary left";

  CountingProgress counted;
  writeLabelMapFiles(map, file, counted);
  EXPECT_GE(counted.reports, 4) << "progress while writing";
  EXPECT_EQ(readLabelMapFiles(file).data()[54321], 4);
}

TEST(NiftiWriter, ADiskThatRefusesMoreBytesIsAnErrorNamingTheFile) {
  TempDir dir;
  ImageGeometry g;
  g.size = {64, 64, 32};
  const VolumePtr v = makeVolume(ScalarType::Int16, g, fixedInfo("CT"),
                                 [](std::size_t i, std::size_t j, std::size_t k) {
                                   return double((i * 7919 + j * 104729 + k * 1299709) % 30000);
                                 });
  const fs::path file = dir / "ct.nii.gz";
  delineate::test::FileSizeLimit full(4096);  // no file grows past 4 KiB: a full disk
  std::string error;
  try {
    NullProgress progress;
    writeNiftiFile(*v, file, progress);
  } catch (const Error& e) {
    error = e.what();
  }
  full.lift();
  EXPECT_NE(error.find(file.string()), std::string::npos) << error;
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(file));
  EXPECT_TRUE(fs::is_empty(dir.path())) << "nothing half-written left";
}

TEST(NiftiWriter, Nifti2ReadsBackOnTheSameGridHereAndInNibabel) {
  TempDir dir;
  const ImageGeometry g = awkwardGrid();
  const VolumePtr v = makeVolume(ScalarType::Int16, g, fixedInfo("MR"),
                                 [](std::size_t i, std::size_t j, std::size_t k) {
                                   return double(int(i * 3 + j * 5 + k * 7) - 40);
                                 });
  for (const char* name : {"v2.nii", "v2.nii.gz"}) {
    SCOPED_TRACE(name);
    NullProgress progress;
    writeNiftiFile(*v, dir / name, progress, false, /*nifti2=*/true);
    ASSERT_TRUE(isNifti2File(dir / name)) << "a 540-byte header with the n+2 magic";
    const VolumePtr back = readVolumeFile(dir / name, progress);
    EXPECT_EQ(back->scalarType(), ScalarType::Int16);
    EXPECT_EQ(back->geometry().differenceFrom(g), "");
    ASSERT_EQ(back->voxels().bytes(), v->voxels().bytes());
    EXPECT_EQ(std::memcmp(back->voxels().data(), v->voxels().data(), v->voxels().bytes()), 0);
  }
  // nibabel, another reader, sees a NIfTI-2 image of that shape, its values and the grid.
  if (delineate::test::runCommand("/usr/bin/python3 -c 'import nibabel'") != 0) {
    GTEST_SKIP() << "python3-nibabel missing (scripts/install-deps.sh)";
  }
  std::string out;
  ASSERT_EQ(delineate::test::runCommand(
                "/usr/bin/python3 -c \"import nibabel as nib, numpy as np; i = nib.load('" +
                    (dir / "v2.nii.gz").string() +
                    "'); a = np.asanyarray(i.dataobj); "
                    "print(type(i).__name__, a.shape, int(a[5, 4, 3]), "
                    "' '.join('%.3f' % (x + 0.0) for x in i.affine[:3].ravel()))\"",
                &out),
            0)
      << out;
  std::ostringstream expected;
  expected << "Nifti2Image (19, 13, 7) " << int(5 * 3 + 4 * 5 + 3 * 7) - 40 << " ";
  // RAS affine = diag(-1, -1, 1) * [D * spacing | origin].
  const double flip[3] = {-1, -1, 1};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) {
      const double x =
          c < 3 ? flip[r] * g.direction[std::size_t(3 * r + c)] * g.spacing[std::size_t(c)]
                : flip[r] * g.origin[std::size_t(r)];
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3f", x == 0 ? 0.0 : x);
      expected << (r || c ? " " : "") << buf;
    }
  }
  EXPECT_NE(out.find(expected.str()), std::string::npos) << out << "\nexpected " << expected.str();
}
