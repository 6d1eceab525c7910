// DICOM SEG details on small synthetic series: the CIELab colour conversion, overlapping segments
// in a SEG from elsewhere, and references into a multi-frame (enhanced) source.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcsequen.h>
#include <dcmtk/dcmdata/dcuid.h>

#include "DicomSegTestSupport.h"
#include "TempDir.h"
#include "core/io/DicomLabColor.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSegReader.h"
#include "core/io/DicomSegWriter.h"
#include "core/io/DicomSeriesLoader.h"

using namespace delineate::core;
using delineate::test::TempDir;
using delineate::test::throughDicom;
namespace fs = std::filesystem;

TEST(DicomSegColor, SrgbSurvivesCieLabWithinOneUnit) {
  int worst = 0;
  for (int r = 0; r < 256; r += 3) {
    for (int g = 0; g < 256; g += 3) {
      for (int b = 0; b < 256; b += 3) {
        const Rgb8 rgb{std::uint8_t(r), std::uint8_t(g), std::uint8_t(b)};
        const Rgb8 back = dicomLabToSrgb(srgbToDicomLab(rgb));
        for (int c = 0; c < 3; ++c) {
          worst = std::max(worst, std::abs(int(back[c]) - int(rgb[c])));
        }
      }
    }
  }
  EXPECT_LE(worst, 1);
  // White is L* 100, a* = b* = 0: scaled 65535, 32896, 32896 (as dcmqi writes it).
  const DicomLab white = srgbToDicomLab({255, 255, 255});
  EXPECT_EQ(white[0], 65535);
  EXPECT_NEAR(white[1], 32896, 2);
  EXPECT_NEAR(white[2], 32896, 2);
}

// A small oblique series whose SEG is edited so that two segments overlap on one slice.
TEST(DicomSegOverlap, LaterSegmentWinsAndIsReported) {
  TempDir dir;
  NullProgress progress;
  ImageGeometry g;
  g.size = {16, 12, 4};
  g.spacing = {0.8, 0.8, 3};
  g.origin = {-20, 10, 40};
  const double c = std::cos(std::numbers::pi / 6), s = std::sin(std::numbers::pi / 6);
  g.direction = {c, -s, 0, s, c, 0, 0, 0, 1};
  auto pixels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
  VolumeInfo info;
  info.modality = "MR";
  info.patientName = "Overlap^Test";
  info.patientId = "OV1";
  const VolumePtr image = throughDicom(Volume(g, pixels, info), dir / "mr");
  LabelMap labels("two", image->geometry(),
                  {Segment{1, "A", "", {200, 0, 0}, {}, {}, {}, "MANUAL", true, false},
                   Segment{2, "B", "", {0, 0, 200}, {}, {}, {}, "MANUAL", true, false}});
  for (std::size_t j = 2; j < 6; ++j) {
    for (std::size_t i = 3; i < 8; ++i) {
      labels.mutableData()[labels.index(i, j, 3)] = 1;  // 20 voxels of A on the last slice
    }
  }
  labels.mutableData()[labels.index(0, 0, 3)] = 2;  // B: one voxel on the last slice
  const fs::path out = dir / "seg.dcm";
  writeDicomSeg(labels, *image, out, {}, progress);

  // Frames are 16x12 = 192 bits (24 bytes) each; the last one is B's: fill it completely.
  DcmFileFormat file;
  ASSERT_TRUE(file.loadFile(out.c_str()).good());
  const Uint8* bytes = nullptr;
  unsigned long count = 0;
  ASSERT_TRUE(file.getDataset()->findAndGetUint8Array(DCM_PixelData, bytes, &count).good());
  ASSERT_EQ(count, 2u * 24u);
  std::vector<Uint8> edited(bytes, bytes + count);
  std::fill(edited.begin() + 24, edited.end(), 0xFF);
  ASSERT_TRUE(
      file.getDataset()->putAndInsertUint8Array(DCM_PixelData, edited.data(), count).good());
  ASSERT_TRUE(file.saveFile(out.c_str(), EXS_LittleEndianExplicit).good());

  std::vector<std::string> warnings;
  const LabelMap back = readDicomSeg(out, image->geometry(), progress, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("segments 1 \"A\" and 2 \"B\" overlap in 20 voxels"),
            std::string::npos)
      << warnings[0];
  for (std::size_t n = 0; n < 16 * 12; ++n) {
    EXPECT_EQ(back.data()[3 * 16 * 12 + n], 2);
  }
  EXPECT_EQ(back.at(4, 4, 2), 0);
}

// An enhanced (multi-frame) CT whose frames are stored out of slice order: each SEG frame must
// name the source frame of its slice, and the instance is referenced once.
TEST(DicomSegMultiFrameSource, FramesReferToTheirSourceFrame) {
  TempDir dir;
  NullProgress progress;
  const std::vector<double> z = {4, 0, 2};  // source frame f lies at z[f] mm
  const Uint16 rows = 4, columns = 5;
  {
    DcmFileFormat ff;
    DcmDataset* ds = ff.getDataset();
    ds->putAndInsertString(DCM_SOPClassUID, UID_EnhancedCTImageStorage);
    ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.826.0.1.3680043.10.99.1.100");
    ds->putAndInsertString(DCM_StudyInstanceUID, "1.2.826.0.1.3680043.10.99.1");
    ds->putAndInsertString(DCM_SeriesInstanceUID, "1.2.826.0.1.3680043.10.99.1.1");
    ds->putAndInsertString(DCM_FrameOfReferenceUID, "1.2.826.0.1.3680043.10.99.1.2");
    ds->putAndInsertString(DCM_Modality, "CT");
    ds->putAndInsertUint16(DCM_Rows, rows);
    ds->putAndInsertUint16(DCM_Columns, columns);
    ds->putAndInsertString(DCM_NumberOfFrames, "3");
    ds->putAndInsertUint16(DCM_SamplesPerPixel, 1);
    ds->putAndInsertString(DCM_PhotometricInterpretation, "MONOCHROME2");
    ds->putAndInsertUint16(DCM_BitsAllocated, 16);
    ds->putAndInsertUint16(DCM_BitsStored, 16);
    ds->putAndInsertUint16(DCM_HighBit, 15);
    ds->putAndInsertUint16(DCM_PixelRepresentation, 0);
    DcmItem* shared = nullptr;
    DcmItem* group = nullptr;
    ds->findOrCreateSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0);
    shared->findOrCreateSequenceItem(DCM_PixelMeasuresSequence, group, 0);
    group->putAndInsertString(DCM_PixelSpacing, "0.5\\0.5");
    shared->findOrCreateSequenceItem(DCM_PlaneOrientationSequence, group, 0);
    group->putAndInsertString(DCM_ImageOrientationPatient, "1\\0\\0\\0\\1\\0");
    for (std::size_t f = 0; f < z.size(); ++f) {
      DcmItem* frame = nullptr;
      ds->findOrCreateSequenceItem(DCM_PerFrameFunctionalGroupsSequence, frame, long(f));
      frame->findOrCreateSequenceItem(DCM_PlanePositionSequence, group, 0);
      const std::string ipp = "0\\0\\" + std::to_string(z[f]);
      group->putAndInsertString(DCM_ImagePositionPatient, ipp.c_str());
    }
    std::vector<Uint16> pixels(z.size() * rows * columns, 7);
    ds->putAndInsertUint16Array(DCM_PixelData, pixels.data(), pixels.size());
    ASSERT_TRUE(ff.saveFile((dir / "enhanced.dcm").c_str(), EXS_LittleEndianExplicit).good());
  }
  const DicomScanResult scan = scanDicomFolder(dir.path(), progress);
  const VolumePtr image = loadDicomSeries(*scan.allSeries().at(0), progress);
  ASSERT_EQ(image->geometry().size[2], 3u);
  LabelMap labels("all", image->geometry(), {Segment{}});
  std::fill(labels.mutableData(), labels.mutableData() + labels.voxelCount(), 1);
  const fs::path out = dir / "seg.dcm";
  writeDicomSeg(labels, *image, out, {}, progress);
  EXPECT_EQ(readDicomSegSummary(out).frames, 3u);

  DcmFileFormat seg;
  ASSERT_TRUE(seg.loadFile(out.c_str()).good());
  for (long f = 0; f < 3; ++f) {
    DcmItem* frame = nullptr;
    DcmItem* item = nullptr;
    ASSERT_TRUE(seg.getDataset()
                    ->findAndGetSequenceItem(DCM_PerFrameFunctionalGroupsSequence, frame, f)
                    .good());
    ASSERT_TRUE(frame->findAndGetSequenceItem(DCM_PlanePositionSequence, item, 0).good());
    Float64 at = 0;
    item->findAndGetFloat64(DCM_ImagePositionPatient, at, 2);
    ASSERT_TRUE(frame->findAndGetSequenceItem(DCM_DerivationImageSequence, item, 0).good());
    ASSERT_TRUE(item->findAndGetSequenceItem(DCM_SourceImageSequence, item, 0).good());
    Sint32 referenced = 0;
    ASSERT_TRUE(item->findAndGetSint32(DCM_ReferencedFrameNumber, referenced).good());
    const auto expected = std::find(z.begin(), z.end(), at) - z.begin() + 1;
    EXPECT_EQ(referenced, expected) << "SEG frame at z " << at;
  }
  DcmItem* series = nullptr;
  ASSERT_TRUE(
      seg.getDataset()->findAndGetSequenceItem(DCM_ReferencedSeriesSequence, series, 0).good());
  DcmSequenceOfItems* instances = nullptr;
  ASSERT_TRUE(series->findAndGetSequence(DCM_ReferencedInstanceSequence, instances).good());
  EXPECT_EQ(instances->card(), 1u);
}
