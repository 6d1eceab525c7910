// DX/MG display attributes through the normal loader: MONOCHROME1, the VOI LUT Sequence, the
// VOI LUT Function, Imager Pixel Spacing over the radiographic magnification; malformed VOI LUT
// tables skipped with a warning; the writer keeps the VOI LUT attributes on export.
#include <gtest/gtest.h>

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmdata/dcvrobow.h>
#include <dcmtk/dcmdata/dcvrss.h>
#include <dcmtk/dcmdata/dcvrus.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "DicomTestSupport.h"
#include "TempDir.h"
#include "core/io/DicomCodecs.h"
#include "core/mammo/DisplayLut.h"

using namespace delineate::core;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

constexpr Uint16 kRows = 4;
constexpr Uint16 kColumns = 5;

struct LutSpec {
  std::vector<Uint16> descriptor;  // entries, first value, bits
  std::vector<Uint16> data;
  std::string explanation;
  bool signedDescriptor = false;  // SS instead of US
};

void addLut(DcmItem& parent, long index, const LutSpec& spec) {
  DcmItem* item = nullptr;
  ASSERT_TRUE(parent.findOrCreateSequenceItem(DCM_VOILUTSequence, item, index).good());
  if (spec.signedDescriptor) {
    auto* d = new DcmSignedShort(DcmTag(DCM_LUTDescriptor, EVR_SS));
    std::vector<Sint16> values(spec.descriptor.begin(), spec.descriptor.end());
    ASSERT_TRUE(d->putSint16Array(values.data(), static_cast<unsigned long>(values.size())).good());
    ASSERT_TRUE(item->insert(d, true).good());
  } else {
    auto* d = new DcmUnsignedShort(DcmTag(DCM_LUTDescriptor, EVR_US));
    ASSERT_TRUE(d->putUint16Array(spec.descriptor.data(),
                                  static_cast<unsigned long>(spec.descriptor.size()))
                    .good());
    ASSERT_TRUE(item->insert(d, true).good());
  }
  auto* data = new DcmOtherByteOtherWord(DcmTag(DCM_LUTData, EVR_OW));
  ASSERT_TRUE(
      data->putUint16Array(spec.data.data(), static_cast<unsigned long>(spec.data.size())).good());
  ASSERT_TRUE(item->insert(data, true).good());
  if (!spec.explanation.empty()) {
    ASSERT_TRUE(item->putAndInsertString(DCM_LUTExplanation, spec.explanation.c_str()).good());
  }
}

struct MgFile {
  std::string photometric = "MONOCHROME1";
  std::optional<std::string> pixelSpacing;
  std::string imagerPixelSpacing = "0.1\\0.1";
  std::optional<std::string> magnification = "1.25";
  std::string voiFunction = "SIGMOID";
  std::vector<LutSpec> luts;
  E_TransferSyntax xfer = EXS_LittleEndianExplicit;
};

// Stored value of pixel n: 0, 100, 101, 102, 2048, 4095, ... (12 bits).
Uint16 storedAt(std::size_t n) {
  static const Uint16 values[] = {0, 100, 101, 102, 2048, 4095, 50, 3000};
  return values[n % 8];
}

fs::path writeMg(const fs::path& file, const MgFile& spec) {
  ensureDicomCodecs();
  DcmFileFormat ff;
  DcmDataset* ds = ff.getDataset();
  ds->putAndInsertString(DCM_SOPClassUID, UID_DigitalMammographyXRayImageStorageForPresentation);
  ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.826.0.1.3680043.10.999.1.1");
  ds->putAndInsertString(DCM_StudyInstanceUID, "1.2.826.0.1.3680043.10.999.1");
  ds->putAndInsertString(DCM_SeriesInstanceUID, "1.2.826.0.1.3680043.10.999.1.2");
  ds->putAndInsertString(DCM_Modality, "MG");
  ds->putAndInsertString(DCM_PatientName, "Mammo^Display");
  ds->putAndInsertString(DCM_PresentationIntentType, "FOR PRESENTATION");
  ds->putAndInsertString(DCM_ImageLaterality, "L");
  DcmItem* view = nullptr;
  ds->findOrCreateSequenceItem(DCM_ViewCodeSequence, view, 0);
  view->putAndInsertString(DCM_CodeValue, "399368009");
  view->putAndInsertString(DCM_CodingSchemeDesignator, "SCT");
  view->putAndInsertString(DCM_CodeMeaning, "medio-lateral oblique");
  ds->putAndInsertUint16(DCM_Rows, kRows);
  ds->putAndInsertUint16(DCM_Columns, kColumns);
  ds->putAndInsertUint16(DCM_SamplesPerPixel, 1);
  ds->putAndInsertString(DCM_PhotometricInterpretation, spec.photometric.c_str());
  ds->putAndInsertUint16(DCM_BitsAllocated, 16);
  ds->putAndInsertUint16(DCM_BitsStored, 12);
  ds->putAndInsertUint16(DCM_HighBit, 11);
  ds->putAndInsertUint16(DCM_PixelRepresentation, 0);
  if (spec.pixelSpacing) {
    ds->putAndInsertString(DCM_PixelSpacing, spec.pixelSpacing->c_str());
  }
  ds->putAndInsertString(DCM_ImagerPixelSpacing, spec.imagerPixelSpacing.c_str());
  if (spec.magnification) {
    ds->putAndInsertString(DCM_EstimatedRadiographicMagnificationFactor,
                           spec.magnification->c_str());
  }
  ds->putAndInsertString(DCM_WindowCenter, "2048");
  ds->putAndInsertString(DCM_WindowWidth, "4096");
  if (!spec.voiFunction.empty()) {
    ds->putAndInsertString(DCM_VOILUTFunction, spec.voiFunction.c_str());
  }
  for (std::size_t i = 0; i < spec.luts.size(); ++i) {
    addLut(*ds, static_cast<long>(i), spec.luts[i]);
  }
  std::vector<Uint16> pixels(kRows * kColumns);
  for (std::size_t n = 0; n < pixels.size(); ++n) {
    pixels[n] = storedAt(n);
  }
  EXPECT_TRUE(ds->putAndInsertUint16Array(DCM_PixelData, pixels.data(),
                                          static_cast<unsigned long>(pixels.size()))
                  .good());
  EXPECT_TRUE(ff.saveFile(file.c_str(), spec.xfer).good());
  return file;
}

VolumePtr load(const fs::path& file) {
  DicomSeries s;
  s.files.push_back(file.string());
  NullProgress progress;
  return loadDicomSeries(s, progress);
}

// The grey level the reading view shows for the stored value at column n (row 0).
int shown(const mammo::DisplayLut& lut, const Volume& v, std::size_t n) {
  const double value = v.valueAt(n, 0, 0);
  EXPECT_TRUE(lut.hasTable());
  const int fromTable = lut.table()[static_cast<int>(value) - lut.offset()];
  EXPECT_EQ(fromTable, lut.map(value));
  return fromTable;
}

// dciodvfy's error lines for `file` (dicom3tools), or "" when it is not installed.
std::string validatorErrors(const fs::path& file, const fs::path& scratch) {
  const char* dciodvfy = "/usr/bin/dciodvfy";
  if (!fs::exists(dciodvfy)) {
    return {};
  }
  const fs::path log = scratch / "dciodvfy.log";
  const std::string cmd =
      std::string(dciodvfy) + " '" + file.string() + "' > '" + log.string() + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  (void)rc;  // its exit status does not tell warnings from errors
  std::ifstream in(log);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.find("Error") != std::string::npos || line.find("Abort") != std::string::npos) {
      out += line + "\n";
    }
  }
  return out;
}

MgFile standardMg() {
  MgFile spec;
  spec.luts.push_back({{3, 100, 12}, {0, 4095, 2048}, "NORMAL", false});
  std::vector<Uint16> ramp(256);
  for (std::size_t i = 0; i < ramp.size(); ++i) {
    ramp[i] = static_cast<Uint16>(i);
  }
  spec.luts.push_back({{256, 0, 8}, ramp, "", false});
  return spec;
}

}  // namespace

TEST(DicomMammoDisplay, LoadsVoiLutsFunctionAndMagnifiedSpacing) {
  TempDir dir;
  for (E_TransferSyntax xfer : {EXS_LittleEndianExplicit, EXS_LittleEndianImplicit}) {
    MgFile spec = standardMg();
    spec.xfer = xfer;
    const auto v = load(writeMg(dir / "mg.dcm", spec));
    SCOPED_TRACE(xfer == EXS_LittleEndianExplicit ? "explicit VR" : "implicit VR");
    const VolumeInfo& info = v->info();
    EXPECT_DOUBLE_EQ(v->geometry().spacing[0], 0.08);
    EXPECT_DOUBLE_EQ(v->geometry().spacing[1], 0.08);
    EXPECT_NE(info.spacingSource.find("magnification 1.25"), std::string::npos)
        << info.spacingSource;
    EXPECT_NE(info.spacingSource.find("Imager Pixel Spacing"), std::string::npos);
    EXPECT_EQ(info.photometric, "MONOCHROME1");
    EXPECT_EQ(info.voiFunction, "SIGMOID");
    EXPECT_EQ(info.presentationIntent, "FOR PRESENTATION");
    EXPECT_EQ(info.viewCode, "399368009");
    EXPECT_EQ(info.laterality, "L");
    EXPECT_TRUE(info.warnings.empty()) << info.warnings.front();
    ASSERT_EQ(info.voiLuts.size(), 2u);
    EXPECT_EQ(info.voiLuts[0].name, "NORMAL");
    EXPECT_DOUBLE_EQ(info.voiLuts[0].firstValue, 100);
    EXPECT_EQ(info.voiLuts[0].bits, 12u);
    EXPECT_EQ(info.voiLuts[0].data, (std::vector<std::uint16_t>{0, 4095, 2048}));
    EXPECT_EQ(info.voiLuts[1].name, "VOI LUT 2");
    EXPECT_EQ(info.voiLuts[1].bits, 8u);
    ASSERT_EQ(info.voiLuts[1].data.size(), 256u);
    EXPECT_EQ(info.voiLuts[1].data[77], 77);

    // Stored values by column: 0, 100, 101, 102, 2048.
    ASSERT_EQ(v->valueAt(4, 0, 0), 2048.0);
    // The first table, MONOCHROME1: entries 0 / 4095 / 2048 (-> 0, 255, 128) shown inverted.
    mammo::DisplaySettings s = mammo::defaultDisplaySettings(*v);
    s.voiLut = 0;
    const auto table = mammo::DisplayLut::build(info, v->scalarType(), s);
    EXPECT_EQ(shown(table, *v, 0), 255);
    EXPECT_EQ(shown(table, *v, 1), 255);
    EXPECT_EQ(shown(table, *v, 2), 0);
    EXPECT_EQ(shown(table, *v, 3), 127);
    EXPECT_EQ(shown(table, *v, 4), 127);
    // The file's window with its SIGMOID function: 255 - round(255 / (1 + exp(-4 (x - c) / w))).
    const auto window =
        mammo::DisplayLut::build(info, v->scalarType(), mammo::defaultDisplaySettings(*v));
    EXPECT_EQ(shown(window, *v, 0), 225);  // 255 - 30
    EXPECT_EQ(shown(window, *v, 4), 127);  // 255 - 128
  }
}

TEST(DicomMammoDisplay, PixelSpacingWinsAndDetectorSpacingIsSaidSo) {
  TempDir dir;
  MgFile calibrated;
  calibrated.pixelSpacing = "0.07\\0.07";
  const auto a = load(writeMg(dir / "calibrated.dcm", calibrated));
  EXPECT_DOUBLE_EQ(a->geometry().spacing[0], 0.07);
  EXPECT_EQ(a->info().spacingSource, "Pixel Spacing");

  MgFile detector;
  detector.magnification.reset();
  const auto b = load(writeMg(dir / "detector.dcm", detector));
  EXPECT_DOUBLE_EQ(b->geometry().spacing[0], 0.1);
  EXPECT_EQ(b->info().spacingSource, "Imager Pixel Spacing (at the detector)");

  MgFile zero;
  zero.magnification = "0";
  const auto c = load(writeMg(dir / "zero.dcm", zero));
  EXPECT_DOUBLE_EQ(c->geometry().spacing[0], 0.1);
  EXPECT_EQ(c->info().spacingSource, "Imager Pixel Spacing (at the detector)");

  MgFile linear;
  linear.voiFunction = "LINEAR";
  EXPECT_EQ(load(writeMg(dir / "linear.dcm", linear))->info().voiFunction, "");
}

TEST(DicomMammoDisplay, ShortLutDataIsSkippedWithAWarning) {
  TempDir dir;
  MgFile spec = standardMg();
  spec.luts[0] = {
      {4, 100, 12}, {0, 4095, 2048}, "SHORT", false};        // 3 entries, the descriptor says 4
  spec.luts.push_back({{2, 0, 20}, {0, 1}, "WIDE", false});  // 20 bits per entry
  const auto file = writeMg(dir / "short.dcm", spec);
  const auto v = load(file);
  ASSERT_EQ(v->info().voiLuts.size(), 1u);
  EXPECT_EQ(v->info().voiLuts[0].name, "VOI LUT 2");
  const auto& warnings = v->info().warnings;
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find(file.string()), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("SHORT"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("3 entries"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find(file.string()), std::string::npos) << warnings[1];
  EXPECT_NE(warnings[1].find("20 bits"), std::string::npos) << warnings[1];
  // The image itself is intact.
  EXPECT_EQ(v->valueAt(3, 0, 0), 102.0);
  EXPECT_EQ(v->info().voiFunction, "SIGMOID");
}

TEST(DicomMammoDisplay, SignedDescriptorAndPacked8BitData) {
  TempDir dir;
  MgFile spec;
  // First value -10 as SS; 8-bit entries packed two to a word (low byte first): 10, 20, 30.
  spec.luts.push_back({{3, static_cast<Uint16>(-10), 8}, {0x140a, 0x001e}, "PACKED", true});
  const auto v = load(writeMg(dir / "packed.dcm", spec));
  ASSERT_EQ(v->info().voiLuts.size(), 1u)
      << (v->info().warnings.empty() ? std::string() : v->info().warnings.front());
  EXPECT_DOUBLE_EQ(v->info().voiLuts[0].firstValue, -10);
  EXPECT_EQ(v->info().voiLuts[0].data, (std::vector<std::uint16_t>{10, 20, 30}));
}

TEST(DicomMammoDisplay, FrameVoiLutSequenceInFunctionalGroups) {
  TempDir dir;
  const fs::path file = dir / "enhanced.dcm";
  {
    DcmFileFormat ff;
    DcmDataset* ds = ff.getDataset();
    ds->putAndInsertString(DCM_SOPClassUID, UID_BreastTomosynthesisImageStorage);
    ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.826.0.1.3680043.10.999.2.1");
    ds->putAndInsertString(DCM_SeriesInstanceUID, "1.2.826.0.1.3680043.10.999.2.2");
    ds->putAndInsertString(DCM_Modality, "MG");
    ds->putAndInsertUint16(DCM_Rows, kRows);
    ds->putAndInsertUint16(DCM_Columns, kColumns);
    ds->putAndInsertString(DCM_NumberOfFrames, "1");
    ds->putAndInsertUint16(DCM_SamplesPerPixel, 1);
    ds->putAndInsertString(DCM_PhotometricInterpretation, "MONOCHROME2");
    ds->putAndInsertUint16(DCM_BitsAllocated, 16);
    ds->putAndInsertUint16(DCM_BitsStored, 12);
    ds->putAndInsertUint16(DCM_HighBit, 11);
    ds->putAndInsertUint16(DCM_PixelRepresentation, 0);
    DcmItem* shared = nullptr;
    ds->findOrCreateSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0);
    DcmItem* measures = nullptr;
    shared->findOrCreateSequenceItem(DCM_PixelMeasuresSequence, measures, 0);
    measures->putAndInsertString(DCM_PixelSpacing, "0.085\\0.085");
    DcmItem* voi = nullptr;
    shared->findOrCreateSequenceItem(DCM_FrameVOILUTSequence, voi, 0);
    voi->putAndInsertString(DCM_WindowCenter, "1000");
    voi->putAndInsertString(DCM_WindowWidth, "2000");
    voi->putAndInsertString(DCM_VOILUTFunction, "LINEAR_EXACT");
    addLut(*voi, 0, {{2, 5, 16}, {100, 65535}, "FRAME", false});
    DcmItem* frame = nullptr;
    ds->findOrCreateSequenceItem(DCM_PerFrameFunctionalGroupsSequence, frame, 0);
    DcmItem* position = nullptr;
    frame->findOrCreateSequenceItem(DCM_PlanePositionSequence, position, 0);
    position->putAndInsertString(DCM_ImagePositionPatient, "0\\0\\0");
    std::vector<Uint16> pixels(kRows * kColumns, 7);
    ds->putAndInsertUint16Array(DCM_PixelData, pixels.data(),
                                static_cast<unsigned long>(pixels.size()));
    ASSERT_TRUE(ff.saveFile(file.c_str(), EXS_LittleEndianExplicit).good());
  }
  const auto v = load(file);
  const VolumeInfo& info = v->info();
  EXPECT_EQ(info.voiFunction, "LINEAR_EXACT");
  ASSERT_FALSE(info.windows.empty());
  EXPECT_DOUBLE_EQ(info.windows[0].center, 1000);
  ASSERT_EQ(info.voiLuts.size(), 1u);
  EXPECT_EQ(info.voiLuts[0].name, "FRAME");
  EXPECT_DOUBLE_EQ(info.voiLuts[0].firstValue, 5);
  EXPECT_EQ(info.voiLuts[0].data, (std::vector<std::uint16_t>{100, 65535}));
  EXPECT_DOUBLE_EQ(v->geometry().spacing[0], 0.085);
  EXPECT_EQ(info.spacingSource, "Pixel Spacing (Pixel Measures Sequence)");
}

TEST(DicomMammoDisplay, WriterKeepsVoiLutFunctionAndTables) {
  ImageGeometry g;
  g.size = {6, 5, 1};
  g.spacing = {0.08, 0.08, 1};
  VolumeInfo info = fixedInfo("MG");
  info.photometric = "MONOCHROME1";
  info.laterality = "R";
  info.viewPosition = "CC";
  info.windows.push_back({"File", 2048, 4096});
  info.voiFunction = "SIGMOID";
  info.voiLuts.push_back({"NORMAL", 100, 12, {0, 4095, 2048}});
  std::vector<std::uint16_t> full(65536);
  for (std::size_t i = 0; i < full.size(); ++i) {
    full[i] = static_cast<std::uint16_t>(65535 - i);
  }
  info.voiLuts.push_back({"FULL", 0, 16, full});
  const auto image =
      makeVolume(ScalarType::UInt16, g, info, [](std::size_t i, std::size_t j, std::size_t) {
        return static_cast<double>((i * 300 + j * 700) % 4096);
      });
  TempDir logs;
  for (DicomTransferSyntax syntax :
       {DicomTransferSyntax::ExplicitLittleEndian, DicomTransferSyntax::ImplicitLittleEndian,
        DicomTransferSyntax::JpegLsLossless}) {
    SCOPED_TRACE(toString(syntax));
    TempDir dir;
    const auto files = writeSeries(*image, dir.path(), syntax);
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(validatorErrors(files[0], logs.path()), "");
    const auto loaded = loadFolder(dir.path());
    const VolumeInfo& back = loaded->info();
    EXPECT_EQ(back.voiFunction, "SIGMOID");
    EXPECT_EQ(back.photometric, "MONOCHROME1");
    EXPECT_TRUE(back.warnings.empty()) << back.warnings.front();
    ASSERT_EQ(back.voiLuts.size(), 2u);
    EXPECT_EQ(back.voiLuts[0].name, "NORMAL");
    EXPECT_DOUBLE_EQ(back.voiLuts[0].firstValue, 100);
    EXPECT_EQ(back.voiLuts[0].bits, 12u);
    EXPECT_EQ(back.voiLuts[0].data, info.voiLuts[0].data);
    EXPECT_EQ(back.voiLuts[1].name, "FULL");
    EXPECT_EQ(back.voiLuts[1].data, full);
    EXPECT_EQ(back.spacingSource, "Pixel Spacing");
    // The same grey levels before and after.
    for (int lutIndex : {-1, 0, 1}) {
      mammo::DisplaySettings s = mammo::defaultDisplaySettings(*image);
      s.voiLut = lutIndex;
      const auto before = mammo::DisplayLut::build(info, image->scalarType(), s);
      const auto after = mammo::DisplayLut::build(back, loaded->scalarType(), s);
      for (std::size_t n = 0; n < 30; ++n) {
        const double x = image->valueAt(n % 6, n / 6, 0);
        ASSERT_EQ(loaded->valueAt(n % 6, n / 6, 0), x);
        EXPECT_EQ(before.map(x), after.map(x)) << lutIndex << " " << x;
      }
    }
  }
}

TEST(DicomMammoDisplay, WriterUsesSignedDescriptorForSignedPixels) {
  ImageGeometry g;
  g.size = {4, 3, 1};
  g.spacing = {0.1, 0.1, 1};
  VolumeInfo info = fixedInfo("DX");
  info.voiLuts.push_back({"NEGATIVE", -100, 12, {0, 1000, 4095}});
  info.voiLuts.push_back({"NOT INTEGRAL", 0.5, 12, {0, 1}});  // cannot be written: left out
  const auto image =
      makeVolume(ScalarType::Int16, g, info, [](std::size_t i, std::size_t j, std::size_t) {
        return -200.0 + static_cast<double>(i * 50 + j * 10);
      });
  for (DicomTransferSyntax syntax :
       {DicomTransferSyntax::ExplicitLittleEndian, DicomTransferSyntax::ImplicitLittleEndian}) {
    SCOPED_TRACE(toString(syntax));
    TempDir dir;
    writeSeries(*image, dir.path(), syntax);
    const auto loaded = loadFolder(dir.path());
    ASSERT_EQ(loaded->info().voiLuts.size(), 1u);
    EXPECT_DOUBLE_EQ(loaded->info().voiLuts[0].firstValue, -100);
    EXPECT_EQ(loaded->info().voiLuts[0].data, info.voiLuts[0].data);
    EXPECT_EQ(loaded->info().voiFunction, "");
  }
}
