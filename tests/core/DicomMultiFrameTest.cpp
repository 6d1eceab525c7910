// Multi-frame objects: enhanced CT/MR functional groups (per-frame positions, shared orientation,
// per-frame rescale), legacy multi-frame with a slice spacing, compressed multi-frame.
#include <gtest/gtest.h>

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmjpls/djrparam.h>

#include "DicomTestSupport.h"
#include "TempDir.h"
#include "core/io/DicomCodecs.h"

using namespace delineate::core;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

constexpr Uint16 kFrameRows = 6;
constexpr Uint16 kFrameColumns = 7;

Uint16 stored(std::size_t frame, std::size_t n) {
  return static_cast<Uint16>(100 * frame + n);
}

DcmItem* item(DcmItem* parent, const DcmTagKey& seq, long index = 0) {
  DcmItem* out = nullptr;
  EXPECT_TRUE(parent->findOrCreateSequenceItem(seq, out, index).good());
  return out;
}

// Frames stored in the order of `zOrder` (z of each frame in mm); per-frame slopes optional.
fs::path writeEnhancedCt(const fs::path& file, const std::vector<double>& zOrder,
                         const std::vector<double>& slopes = {},
                         E_TransferSyntax xfer = EXS_LittleEndianExplicit) {
  ensureDicomCodecs();
  DcmFileFormat ff;
  DcmDataset* ds = ff.getDataset();
  ds->putAndInsertString(DCM_SOPClassUID, UID_EnhancedCTImageStorage);
  ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.3.4.100");
  ds->putAndInsertString(DCM_StudyInstanceUID, "1.2.3.4");
  ds->putAndInsertString(DCM_SeriesInstanceUID, "1.2.3.4.1");
  ds->putAndInsertString(DCM_FrameOfReferenceUID, "1.2.3.4.2");
  ds->putAndInsertString(DCM_Modality, "CT");
  ds->putAndInsertString(DCM_PatientName, "Multi^Frame");
  ds->putAndInsertUint16(DCM_Rows, kFrameRows);
  ds->putAndInsertUint16(DCM_Columns, kFrameColumns);
  ds->putAndInsertString(DCM_NumberOfFrames, std::to_string(zOrder.size()).c_str());
  ds->putAndInsertUint16(DCM_SamplesPerPixel, 1);
  ds->putAndInsertString(DCM_PhotometricInterpretation, "MONOCHROME2");
  ds->putAndInsertUint16(DCM_BitsAllocated, 16);
  ds->putAndInsertUint16(DCM_BitsStored, 12);
  ds->putAndInsertUint16(DCM_HighBit, 11);
  ds->putAndInsertUint16(DCM_PixelRepresentation, 0);

  DcmItem* shared = item(ds, DCM_SharedFunctionalGroupsSequence);
  item(shared, DCM_PixelMeasuresSequence)->putAndInsertString(DCM_PixelSpacing, "0.5\\0.25");
  item(shared, DCM_PixelMeasuresSequence)->putAndInsertString(DCM_SliceThickness, "2");
  item(shared, DCM_PlaneOrientationSequence)
      ->putAndInsertString(DCM_ImageOrientationPatient, "1\\0\\0\\0\\1\\0");
  DcmItem* voi = item(shared, DCM_FrameVOILUTSequence);
  voi->putAndInsertString(DCM_WindowCenter, "40");
  voi->putAndInsertString(DCM_WindowWidth, "400");
  if (slopes.empty()) {
    DcmItem* pvt = item(shared, DCM_PixelValueTransformationSequence);
    pvt->putAndInsertString(DCM_RescaleIntercept, "-1024");
    pvt->putAndInsertString(DCM_RescaleSlope, "1");
  }
  for (std::size_t f = 0; f < zOrder.size(); ++f) {
    DcmItem* frame = item(ds, DCM_PerFrameFunctionalGroupsSequence, static_cast<long>(f));
    const std::string ipp = "-5\\-7.5\\" + std::to_string(zOrder[f]);
    item(frame, DCM_PlanePositionSequence)
        ->putAndInsertString(DCM_ImagePositionPatient, ipp.c_str());
    if (!slopes.empty()) {
      DcmItem* pvt = item(frame, DCM_PixelValueTransformationSequence);
      pvt->putAndInsertString(DCM_RescaleIntercept, "0");
      pvt->putAndInsertString(DCM_RescaleSlope, std::to_string(slopes[f]).c_str());
    }
  }
  std::vector<Uint16> pixels(zOrder.size() * kFrameRows * kFrameColumns);
  for (std::size_t f = 0; f < zOrder.size(); ++f) {
    for (std::size_t n = 0; n < kFrameRows * kFrameColumns; ++n) {
      pixels[f * kFrameRows * kFrameColumns + n] = stored(f, n);
    }
  }
  EXPECT_TRUE(ds->putAndInsertUint16Array(DCM_PixelData, pixels.data(),
                                          static_cast<unsigned long>(pixels.size()))
                  .good());
  if (DcmXfer(xfer).isEncapsulated()) {
    DJLSRepresentationParameter lossless(0, OFTrue);
    EXPECT_TRUE(ds->chooseRepresentation(xfer, &lossless).good());
  }
  EXPECT_TRUE(ff.saveFile(file.c_str(), xfer).good());
  return file;
}

DicomSeries seriesOf(const fs::path& file) {
  DicomSeries s;
  s.files.push_back(file.string());
  return s;
}

}  // namespace

TEST(DicomMultiFrame, EnhancedCtSortsFramesAndRescales) {
  TempDir dir;
  const std::vector<double> z = {10, 0, 6, 2, 4, 8};  // frame f lies at z[f]
  const auto file = writeEnhancedCt(dir / "enhanced.dcm", z);
  NullProgress progress;
  const auto scan = scanDicomFolder(dir.path(), progress);
  const auto series = onlySeries(scan);
  EXPECT_EQ(series.frames, 6u);
  const auto v = loadDicomSeries(series, progress);
  ASSERT_EQ(v->scalarType(), ScalarType::Int16);
  EXPECT_EQ(v->geometry().size, (Size3{kFrameColumns, kFrameRows, 6}));
  EXPECT_DOUBLE_EQ(v->geometry().spacing[0], 0.25);
  EXPECT_DOUBLE_EQ(v->geometry().spacing[1], 0.5);
  EXPECT_DOUBLE_EQ(v->geometry().spacing[2], 2.0);
  EXPECT_DOUBLE_EQ(v->geometry().origin[2], 0.0);
  EXPECT_TRUE(v->info().warnings.empty());
  ASSERT_FALSE(v->info().windows.empty());
  EXPECT_DOUBLE_EQ(v->info().windows[0].width, 400);
  // Slice k is the frame at z = 2k.
  for (std::size_t k = 0; k < 6; ++k) {
    const std::size_t frame = std::find(z.begin(), z.end(), 2.0 * k) - z.begin();
    EXPECT_EQ(v->valueAt(3, 2, k), stored(frame, 3 + 2 * kFrameColumns) - 1024.0) << k;
  }
  EXPECT_EQ(v->info().sourceFiles.size(), 6u);
}

TEST(DicomMultiFrame, PerFrameSlopesGiveFloat) {
  TempDir dir;
  const auto file = writeEnhancedCt(dir / "slopes.dcm", {0, 1, 2}, {1.0, 0.5, 2.0});
  NullProgress progress;
  const auto v = loadDicomSeries(seriesOf(file), progress);
  ASSERT_EQ(v->scalarType(), ScalarType::Float32);
  EXPECT_FLOAT_EQ(v->valueAt(1, 0, 0), stored(0, 1) * 1.0f);
  EXPECT_FLOAT_EQ(v->valueAt(1, 0, 1), stored(1, 1) * 0.5f);
  EXPECT_FLOAT_EQ(v->valueAt(1, 0, 2), stored(2, 1) * 2.0f);
}

TEST(DicomMultiFrame, CompressedMultiFrameOnSeveralThreads) {
  TempDir dir;
  std::vector<double> z;
  for (int f = 0; f < 40; ++f) {
    z.push_back(39.0 - f);  // stored top to bottom
  }
  const auto file = writeEnhancedCt(dir / "jls.dcm", z, {}, EXS_JPEGLSLossless);
  NullProgress progress;
  for (unsigned threads : {1u, 2u, 3u}) {
    DicomLoadOptions options;
    options.threads = threads;
    const auto v = loadDicomSeries(seriesOf(file), progress, options);
    ASSERT_EQ(v->geometry().size[2], 40u);
    for (std::size_t k = 0; k < 40; ++k) {
      ASSERT_EQ(v->valueAt(5, 4, k), stored(39 - k, 5 + 4 * kFrameColumns) - 1024.0) << k;
    }
  }
}

TEST(DicomMultiFrame, LegacyMultiFrameUsesSpacingBetweenSlices) {
  TempDir dir;
  const fs::path file = dir / "nm.dcm";
  DcmFileFormat ff;
  DcmDataset* ds = ff.getDataset();
  ds->putAndInsertString(DCM_SOPClassUID, UID_NuclearMedicineImageStorage);
  ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.3.9");
  ds->putAndInsertString(DCM_SeriesInstanceUID, "1.2.3.9.1");
  ds->putAndInsertString(DCM_Modality, "NM");
  ds->putAndInsertUint16(DCM_Rows, 4);
  ds->putAndInsertUint16(DCM_Columns, 4);
  ds->putAndInsertString(DCM_NumberOfFrames, "3");
  ds->putAndInsertUint16(DCM_SamplesPerPixel, 1);
  ds->putAndInsertString(DCM_PhotometricInterpretation, "MONOCHROME2");
  ds->putAndInsertUint16(DCM_BitsAllocated, 16);
  ds->putAndInsertUint16(DCM_BitsStored, 16);
  ds->putAndInsertUint16(DCM_HighBit, 15);
  ds->putAndInsertUint16(DCM_PixelRepresentation, 0);
  ds->putAndInsertString(DCM_ImagePositionPatient, "0\\0\\0");
  ds->putAndInsertString(DCM_ImageOrientationPatient, "1\\0\\0\\0\\1\\0");
  ds->putAndInsertString(DCM_PixelSpacing, "4\\4");
  ds->putAndInsertString(DCM_SpacingBetweenSlices, "4");
  std::vector<Uint16> px(48);
  for (std::size_t n = 0; n < px.size(); ++n) {
    px[n] = static_cast<Uint16>(n * 1000);  // up to 47000: above Int16
  }
  ds->putAndInsertUint16Array(DCM_PixelData, px.data(), 48);
  ASSERT_TRUE(ff.saveFile(file.c_str(), EXS_LittleEndianImplicit).good());
  NullProgress progress;
  const auto v = loadDicomSeries(seriesOf(file), progress);
  EXPECT_EQ(v->scalarType(), ScalarType::UInt16);
  EXPECT_EQ(v->geometry().size[2], 3u);
  EXPECT_DOUBLE_EQ(v->geometry().spacing[2], 4.0);
  EXPECT_EQ(v->valueAt(3, 3, 2), 47000.0);
}
