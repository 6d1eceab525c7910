#include <gtest/gtest.h>

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>

#include "TempDir.h"
#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"

using namespace delineate::core;

namespace {
VolumePtr mammoLike(std::uint16_t maxValue) {
  ImageGeometry g;
  g.size = {64, 48, 1};
  g.spacing = {0.1, 0.1, 1};
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, g.voxelCount());
  for (std::size_t n = 0; n < voxels->count(); ++n) {
    voxels->as<std::uint16_t>()[n] = static_cast<std::uint16_t>(n * 37 % (maxValue + 1u));
  }
  VolumeInfo info;
  info.modality = "MG";
  return std::make_shared<const Volume>(g, voxels, info);
}
}  // namespace

TEST(DicomBitsStored, TwelveBitMammogramsStoreTwelveBitsAndReadBackExactly) {
  delineate::test::TempDir dir;
  NullProgress progress;
  const auto image = mammoLike(4095);
  DicomWriteOptions options;
  options.bitsStored = 12;
  const auto files = writeDicomSeries(*image, dir.path(), options, progress);
  ASSERT_EQ(files.size(), 1u);
  DcmFileFormat ff;
  ASSERT_TRUE(ff.loadFile(files[0].c_str()).good());
  Uint16 bits = 0, high = 0;
  ff.getDataset()->findAndGetUint16(DCM_BitsStored, bits);
  ff.getDataset()->findAndGetUint16(DCM_HighBit, high);
  EXPECT_EQ(bits, 12);
  EXPECT_EQ(high, 11);
  const auto scan = scanDicomFolder(dir.path(), progress);
  const auto loaded = loadDicomSeries(*scan.allSeries().at(0), progress);
  ASSERT_EQ(loaded->voxels().count(), image->voxels().count());
  for (std::size_t n = 0; n < image->voxels().count(); ++n) {
    ASSERT_EQ(loaded->valueAt(n % 64, n / 64, 0), image->valueAt(n % 64, n / 64, 0));
  }
}

TEST(DicomBitsStored, ValuesThatDoNotFitAreRefused) {
  delineate::test::TempDir dir;
  NullProgress progress;
  DicomWriteOptions options;
  options.bitsStored = 12;
  EXPECT_THROW(writeDicomSeries(*mammoLike(5000), dir.path(), options, progress), Error);
}
