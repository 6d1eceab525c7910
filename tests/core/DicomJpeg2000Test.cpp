// JPEG 2000 has no DCMTK decoder: the loader falls back to GDCM through ITK. The files are made
// with ITK's GDCMImageIO writer (OpenJPEG).
#include <gtest/gtest.h>
#include <itkGDCMImageIO.h>
#include <itkImage.h>
#include <itkImageFileWriter.h>

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>

#include <fstream>
#include <iterator>

#include "DicomTestSupport.h"
#include "TempDir.h"

using namespace delineate::core;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

using Image2 = itk::Image<short, 2>;

short valueAt(std::size_t i, std::size_t j, std::size_t k) {
  return static_cast<short>(static_cast<int>(i * 31 + j * 7 + k * 1000) - 1024);
}

void writeJ2kSlice(const fs::path& file, std::size_t k, std::size_t nx, std::size_t ny) {
  auto image = Image2::New();
  Image2::RegionType region;
  region.SetSize({nx, ny});
  image->SetRegions(region);
  image->Allocate();
  for (std::size_t j = 0; j < ny; ++j) {
    for (std::size_t i = 0; i < nx; ++i) {
      image->SetPixel({static_cast<long>(i), static_cast<long>(j)}, valueAt(i, j, k));
    }
  }
  auto io = itk::GDCMImageIO::New();
  io->SetCompressionType(itk::GDCMImageIO::CompressionEnum::JPEG2000);
  auto writer = itk::ImageFileWriter<Image2>::New();
  writer->SetInput(image);
  writer->SetImageIO(io);
  writer->SetFileName(file.string());
  writer->UseCompressionOn();
  writer->Update();

  // ITK writes its own identity and geometry for 2-D images; put the slice into one series.
  DcmFileFormat ff;
  ASSERT_TRUE(ff.loadFile(file.c_str()).good());
  DcmDataset* ds = ff.getDataset();
  ds->putAndInsertString(DCM_Modality, "CT");
  ds->putAndInsertString(DCM_StudyInstanceUID, "1.2.3.4.5");
  ds->putAndInsertString(DCM_SeriesInstanceUID, "1.2.3.4.5.6");
  ds->putAndInsertString(DCM_InstanceNumber, std::to_string(k + 1).c_str());
  const std::string ipp = "-10\\-20\\" + std::to_string(2.0 * static_cast<double>(k));
  ds->putAndInsertString(DCM_ImagePositionPatient, ipp.c_str());
  ds->putAndInsertString(DCM_ImageOrientationPatient, "1\\0\\0\\0\\1\\0");
  ds->putAndInsertString(DCM_PixelSpacing, "0.5\\0.5");
  ASSERT_TRUE(ff.saveFile(file.c_str(), ds->getOriginalXfer()).good());
}

}  // namespace

TEST(DicomJpeg2000, FallsBackToGdcm) {
  TempDir dir;
  const std::size_t nx = 12, ny = 9, nz = 3;
  for (std::size_t k = 0; k < nz; ++k) {
    writeJ2kSlice(dir / ("j2k" + std::to_string(k) + ".dcm"), k, nx, ny);
  }
  const auto v = loadFolder(dir.path());
  EXPECT_NE(v->info().transferSyntax.find("JPEG 2000"), std::string::npos)
      << v->info().transferSyntax;
  ASSERT_EQ(v->geometry().size, (Size3{nx, ny, nz}));
  EXPECT_EQ(v->scalarType(), ScalarType::Int16);
  for (std::size_t k = 0; k < nz; ++k) {
    for (std::size_t j = 0; j < ny; ++j) {
      for (std::size_t i = 0; i < nx; ++i) {
        ASSERT_EQ(v->valueAt(i, j, k), valueAt(i, j, k)) << i << "," << j << "," << k;
      }
    }
  }
}

// Found by DicomLoaderFuzzer: a JPEG 2000 fragment whose length claims 4 GiB made GDCM allocate
// it before noticing the file is shorter.
TEST(DicomJpeg2000, HugeFragmentLengthIsRefusedBeforeGdcm) {
  TempDir dir;
  const fs::path file = dir / "j2k.dcm";
  writeJ2kSlice(file, 0, 12, 9);
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string itemThenCodestream("\xfe\xff\x00\xe0", 4);
  std::size_t at = std::string::npos;
  for (std::size_t p = bytes.find(itemThenCodestream); p != std::string::npos;
       p = bytes.find(itemThenCodestream, p + 1)) {
    if (p + 10 <= bytes.size() && bytes.compare(p + 8, 2, "\xff\x4f") == 0) {
      at = p;
    }
  }
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at + 4, 4, std::string("\x88\x00\xff\xff", 4));
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  DicomSeries series;
  series.files.push_back(file.string());
  NullProgress progress;
  expectErrorNaming([&] { loadDicomSeries(series, progress); }, file.string());
}
