// Probability maps as images for the mammography heatmap: NIfTI (float and 8-bit), a fractional
// DICOM Segmentation and Parametric Maps (float, and integer through the real-world value
// mapping) written here with DCMTK; the image each names; refusals that name the file; and how a
// map is fitted onto an image's grid.
#include <gtest/gtest.h>

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "DicomTestSupport.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/io/NiftiWriter.h"
#include "core/mammo/ProbabilityImage.h"

using namespace delineate::core;
using namespace delineate::core::mammo;
using delineate::test::makeVolume;
using delineate::test::TempDir;
namespace fs = std::filesystem;

namespace {

// A one-frame DICOM object of `sopClass` (5 columns x 4 rows) made the way a producer would:
// `fill` adds the pixel data and its attributes.
fs::path writeDicomMap(const fs::path& file, const char* sopClass,
                       const std::function<void(DcmDataset&)>& fill, int frames = 1) {
  DcmFileFormat ff;
  DcmDataset* ds = ff.getDataset();
  ds->putAndInsertString(DCM_SOPClassUID, sopClass);
  ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.826.0.1.3680043.10.1234.77.1");
  ds->putAndInsertUint16(DCM_Rows, 4);
  ds->putAndInsertUint16(DCM_Columns, 5);
  ds->putAndInsertString(DCM_NumberOfFrames, std::to_string(frames).c_str());
  ds->putAndInsertUint16(DCM_SamplesPerPixel, 1);
  ds->putAndInsertString(DCM_PhotometricInterpretation, "MONOCHROME2");
  DcmItem* shared = nullptr;
  ds->findOrCreateSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0);
  DcmItem* derivation = nullptr;
  shared->findOrCreateSequenceItem(DCM_DerivationImageSequence, derivation, 0);
  DcmItem* source = nullptr;
  derivation->findOrCreateSequenceItem(DCM_SourceImageSequence, source, 0);
  source->putAndInsertString(DCM_ReferencedSOPClassUID,
                             UID_DigitalMammographyXRayImageStorageForPresentation);
  source->putAndInsertString(DCM_ReferencedSOPInstanceUID, "1.2.826.0.1.3680043.10.1234.77.9");
  fill(*ds);
  EXPECT_TRUE(ff.saveFile(file.c_str(), EXS_LittleEndianExplicit).good());
  return file;
}

std::string probabilityError(const fs::path& file) {
  NullProgress progress;
  try {
    readProbabilityImage(file, progress);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ProbabilityImage, AFloatNiftiIsReadAsItIsAndAnEightBitOneScaled) {
  TempDir dir;
  ImageGeometry g;
  g.size = {30, 40, 1};
  auto value = [](std::size_t i, std::size_t j, std::size_t) { return (i + 30.0 * j) / 1200.0; };
  NullProgress progress;
  writeNiftiFile(*makeVolume(ScalarType::Float32, g, {}, value), dir.path() / "p.nii.gz", progress);
  const ProbabilityImage p = readProbabilityImage(dir.path() / "p.nii.gz", progress);
  EXPECT_EQ(p.kind, "NIfTI");
  ASSERT_EQ(p.columns, 30u);
  ASSERT_EQ(p.rows, 40u);
  EXPECT_FLOAT_EQ(p.values[7 + 30 * 11], static_cast<float>((7 + 30.0 * 11) / 1200.0));
  EXPECT_TRUE(p.referencedImage.empty());
  EXPECT_TRUE(p.warnings.empty());

  writeNiftiFile(*makeVolume(ScalarType::UInt8, g, {},
                             [](std::size_t i, std::size_t, std::size_t) { return i * 8.0; }),
                 dir.path() / "u8.nii", progress);
  const ProbabilityImage u8 = readProbabilityImage(dir.path() / "u8.nii", progress);
  EXPECT_FLOAT_EQ(u8.values[5], 40.0f / 255.0f);
  // Two slices are no map for a mammogram.
  g.size = {30, 40, 2};
  writeNiftiFile(*makeVolume(ScalarType::Float32, g, {}, value), dir.path() / "two.nii", progress);
  EXPECT_NE(probabilityError(dir.path() / "two.nii").find("one slice"), std::string::npos);
}

TEST(ProbabilityImage, AFractionalSegmentationIsDividedByItsMaximum) {
  TempDir dir;
  const fs::path seg =
      writeDicomMap(dir.path() / "frac.dcm", UID_SegmentationStorage, [](DcmDataset& ds) {
        ds.putAndInsertString(DCM_SegmentationType, "FRACTIONAL");
        ds.putAndInsertUint16(DCM_MaximumFractionalValue, 180);
        ds.putAndInsertUint16(DCM_BitsAllocated, 8);
        ds.putAndInsertUint16(DCM_BitsStored, 8);
        ds.putAndInsertUint16(DCM_HighBit, 7);
        std::vector<Uint8> pixels(20);
        for (std::size_t i = 0; i < 20; ++i) {
          pixels[i] = static_cast<Uint8>(i * 10);
        }
        ds.putAndInsertUint8Array(DCM_PixelData, pixels.data(), 20);
      });
  NullProgress progress;
  const ProbabilityImage p = readProbabilityImage(seg, progress);
  EXPECT_EQ(p.kind, "DICOM Segmentation (fractional)");
  EXPECT_EQ(p.columns, 5u);
  EXPECT_EQ(p.rows, 4u);
  EXPECT_FLOAT_EQ(p.values[13], 130.0f / 180.0f);
  EXPECT_EQ(p.referencedImage, "1.2.826.0.1.3680043.10.1234.77.9");
  // A value above the maximum is clamped, with a warning naming the file.
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("frac.dcm"), std::string::npos);
  EXPECT_FLOAT_EQ(p.values[19], 1.0f);

  const fs::path binary =
      writeDicomMap(dir.path() / "binary.dcm", UID_SegmentationStorage, [](DcmDataset& ds) {
        ds.putAndInsertString(DCM_SegmentationType, "BINARY");
        ds.putAndInsertUint16(DCM_BitsAllocated, 1);
      });
  const std::string why = probabilityError(binary);
  EXPECT_NE(why.find("binary.dcm"), std::string::npos) << why;
  EXPECT_NE(why.find("binary segmentation"), std::string::npos) << why;
}

TEST(ProbabilityImage, AParametricMapIsReadFromFloatOrMappedIntegers) {
  TempDir dir;
  const fs::path floats =
      writeDicomMap(dir.path() / "pm-float.dcm", "1.2.840.10008.5.1.4.1.1.30", [](DcmDataset& ds) {
        ds.putAndInsertUint16(DCM_BitsAllocated, 32);
        std::vector<Float32> pixels(20);
        for (std::size_t i = 0; i < 20; ++i) {
          pixels[i] = static_cast<Float32>(i) / 20.0f;
        }
        ds.putAndInsertFloat32Array(DCM_FloatPixelData, pixels.data(), 20);
      });
  NullProgress progress;
  const ProbabilityImage f = readProbabilityImage(floats, progress);
  EXPECT_EQ(f.kind, "DICOM Parametric Map");
  EXPECT_FLOAT_EQ(f.values[9], 9.0f / 20.0f);
  EXPECT_EQ(f.referencedImage, "1.2.826.0.1.3680043.10.1234.77.9");

  const fs::path mapped =
      writeDicomMap(dir.path() / "pm-int.dcm", "1.2.840.10008.5.1.4.1.1.30", [](DcmDataset& ds) {
        ds.putAndInsertUint16(DCM_BitsAllocated, 16);
        ds.putAndInsertUint16(DCM_BitsStored, 16);
        ds.putAndInsertUint16(DCM_HighBit, 15);
        ds.putAndInsertUint16(DCM_PixelRepresentation, 0);
        std::vector<Uint16> pixels(20, 500);
        ds.putAndInsertUint16Array(DCM_PixelData, pixels.data(), 20);
        DcmItem* shared = nullptr;
        ds.findOrCreateSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0);
        DcmItem* rwvm = nullptr;
        shared->findOrCreateSequenceItem(DCM_RealWorldValueMappingSequence, rwvm, 0);
        rwvm->putAndInsertFloat64(DCM_RealWorldValueSlope, 0.001);
        rwvm->putAndInsertFloat64(DCM_RealWorldValueIntercept, 0.1);
      });
  const ProbabilityImage m = readProbabilityImage(mapped, progress);
  EXPECT_NEAR(m.values[3], 0.6, 1e-6);

  const fs::path twoFrames = writeDicomMap(
      dir.path() / "pm-2.dcm", "1.2.840.10008.5.1.4.1.1.30",
      [](DcmDataset& ds) {
        std::vector<Float32> pixels(40, 0.5f);
        ds.putAndInsertFloat32Array(DCM_FloatPixelData, pixels.data(), 40);
      },
      2);
  EXPECT_NE(probabilityError(twoFrames).find("one frame"), std::string::npos);
  // Another kind of DICOM object is named as such.
  const fs::path image =
      writeDicomMap(dir.path() / "sc.dcm", UID_SecondaryCaptureImageStorage, [](DcmDataset&) {});
  EXPECT_NE(probabilityError(image).find("Parametric Map"), std::string::npos);
  EXPECT_NE(probabilityError(dir.path() / "missing.nii").find("missing.nii"), std::string::npos);
}

// Maps written by pydicom (another producer) against pydicom's own reading, scaled to 0..1.
class ProbabilityImageByPydicom : public ::testing::TestWithParam<const char*> {};

TEST_P(ProbabilityImageByPydicom, ValuesAndTheImageNamedAreThoseTheProducerReads) {
  if (delineate::test::runCommand("/usr/bin/python3 -c 'import numpy, pydicom'") != 0) {
    GTEST_SKIP() << "python3-pydicom missing (scripts/install-deps.sh)";
  }
  TempDir dir;
  std::string out;
  ASSERT_EQ(delineate::test::runCommand(
                "/usr/bin/python3 " + std::string(DELINEATE_TEST_PRODUCERS) + "/pydicom_cases.py " +
                    GetParam() + " '" + dir.path().string() + "'",
                &out),
            0)
      << out;
  std::vector<double> ref(30);
  std::ifstream in(dir.path() / "reference.f64", std::ios::binary);
  in.read(reinterpret_cast<char*>(ref.data()), 30 * 8);
  ASSERT_TRUE(in.good());
  NullProgress progress;
  const ProbabilityImage p = readProbabilityImage(dir.path() / "image.dcm", progress);
  ASSERT_EQ(p.columns, 5u);
  ASSERT_EQ(p.rows, 6u);
  for (std::size_t i = 0; i < 30; ++i) {
    EXPECT_NEAR(p.values[i], ref[i], 1e-6) << i;
  }
  EXPECT_EQ(p.referencedImage, "1.2.826.0.1.3680043.10.1234.88.1");
  EXPECT_TRUE(p.warnings.empty());
}

INSTANTIATE_TEST_SUITE_P(Producers, ProbabilityImageByPydicom,
                         ::testing::Values("probability-map", "fractional-seg"));

TEST(ProbabilityImage, AMapIsFittedOntoTheImagesGrid) {
  ProbabilityImage p;
  p.columns = 30;
  p.rows = 40;
  p.values.assign(1200, 0.25f);
  p.values[0] = 1.0f;
  // The image's own grid: used pixel for pixel.
  FindingHeatmap same = heatmapOnImage(p, 30, 40, "map");
  EXPECT_EQ(same.step, 1.0);
  EXPECT_EQ(same.values, p.values);
  // A scaled-down copy of a 120 x 160 image: its step is 4.
  FindingHeatmap coarse = heatmapOnImage(p, 120, 160, "map");
  EXPECT_EQ(coarse.columns, 30u);
  EXPECT_DOUBLE_EQ(coarse.step, 4.0);
  // Not the image's shape: refused with both sizes.
  try {
    heatmapOnImage(p, 120, 100, "map.nii");
    FAIL() << "expected a refusal";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("30 x 40"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("120 x 100"), std::string::npos) << e.what();
  }
  // A full-resolution map of a large image is averaged down to at most 1024 on its long side.
  ProbabilityImage big;
  big.columns = 2050;
  big.rows = 10;
  big.values.assign(2050 * 10, 0.0f);
  for (std::size_t x = 0; x < 3; ++x) {
    big.values[x] = 0.9f;  // the first 3 x 3 block: one row of it hot
  }
  const FindingHeatmap small = heatmapOnImage(big, 2050, 10, "big");
  EXPECT_DOUBLE_EQ(small.step, 3.0);
  EXPECT_EQ(small.columns, 684u);
  EXPECT_EQ(small.rows, 4u);
  EXPECT_NEAR(small.values[0], 0.3f, 1e-6);
}

}  // namespace
