// Found by NiftiLoaderFuzzer: a NIfTI header with NaN in its orientation made ITK abort the
// process, and one with -1.7e38 in its sform made ITK's SVD loop for ever; both must give an
// Error naming the file.
#include "core/io/NiftiHeaderCheck.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

#include "TempDir.h"
#include "core/Error.h"
#include "core/io/VolumeFileIO.h"

using namespace delineate::core;
using delineate::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string niftiWith(const TempDir& dir, std::size_t offset, float value) {
  ImageGeometry g;
  g.size = {4, 3, 2};
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
  const Volume v(g, voxels, VolumeInfo{});
  const fs::path plain = dir / "plain.nii";
  writeVolumeFile(v, plain);
  std::ifstream in(plain, std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(in), {}};
  std::memcpy(bytes.data() + offset, &value, sizeof value);
  return bytes;
}

std::string niftiWithNan(const TempDir& dir, std::size_t offset) {
  return niftiWith(dir, offset, std::numeric_limits<float>::quiet_NaN());
}

void expectRefused(const fs::path& path, const char* reason = "not a finite number") {
  NullProgress progress;
  try {
    readVolumeFile(path, progress);
    FAIL() << "accepted " << path;
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), path.string());
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(NiftiHeaderCheck, NanInTheSformIsAnError) {
  TempDir dir;
  const std::string bytes = niftiWithNan(dir, 280);  // srow_x[0]
  const fs::path nii = dir / "nan.nii";
  std::ofstream(nii, std::ios::binary) << bytes;
  expectRefused(nii);

  const fs::path gz = dir / "nan.nii.gz";
  gzFile f = gzopen(gz.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
  expectRefused(gz);
}

TEST(NiftiHeaderCheck, NanInTheQuaternionIsAnError) {
  TempDir dir;
  const fs::path nii = dir / "q.nii";
  std::ofstream(nii, std::ios::binary) << niftiWithNan(dir, 260);  // quatern_c
  expectRefused(nii);
}

TEST(NiftiHeaderCheck, BogusSizeFieldDoesNotHideTheNan) {
  TempDir dir;
  std::string bytes = niftiWithNan(dir, 296);  // srow_y[0]
  bytes[3] = '\x0e';                           // sizeof_hdr 0x0e00015c: still read by ITK
  const fs::path nii = dir / "odd.nii";
  std::ofstream(nii, std::ios::binary) << bytes;
  expectRefused(nii);
}

TEST(NiftiHeaderCheck, OtherFilesPass) {
  TempDir dir;
  const fs::path txt = dir / "notes.txt";
  std::ofstream(txt) << "x";
  EXPECT_NO_THROW(checkNiftiHeader(txt));
  EXPECT_NO_THROW(checkNiftiHeader(dir / "missing.nii"));
}

TEST(NiftiHeaderCheck, AHugeSformEntryIsAnErrorNotAnEndlessLoop) {
  TempDir dir;
  const fs::path nii = dir / "huge.nii";
  std::ofstream(nii, std::ios::binary) << niftiWith(dir, 288, -1.7014118e38f);  // srow_x[2]
  expectRefused(nii, "srow[2] is");
  const fs::path far = dir / "far.nii";
  std::ofstream(far, std::ios::binary) << niftiWith(dir, 268, 5e6f);  // qoffset_x: 5 km
  expectRefused(far, "not a plausible size or position");
}
