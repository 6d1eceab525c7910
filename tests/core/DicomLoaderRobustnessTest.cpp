// Broken input never crashes the loader: each case ends in an Error (or a DicomFileProblem from
// the scan) that names the file.
#include <gtest/gtest.h>

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcpixel.h>
#include <dcmtk/dcmdata/dcpixseq.h>
#include <dcmtk/dcmdata/dcpxitem.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <array>
#include <cmath>
#include <fstream>
#include <random>

#include "DicomTestSupport.h"
#include "TempDir.h"

using namespace delineate::core;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

DicomSeries seriesOf(std::vector<fs::path> files) {
  DicomSeries s;
  for (const auto& f : files) {
    s.files.push_back(f.string());
  }
  return s;
}

VolumePtr load(const DicomSeries& s) {
  NullProgress progress;
  return loadDicomSeries(s, progress);
}

// A minimal CT header; the caller adds the pixel data.
void fillHeader(DcmDataset* ds, Uint16 rows, Uint16 columns) {
  ds->putAndInsertString(DCM_SOPClassUID, UID_CTImageStorage);
  ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.3.4.5.6.7.8");
  ds->putAndInsertString(DCM_StudyInstanceUID, "1.2.3.4.5");
  ds->putAndInsertString(DCM_SeriesInstanceUID, "1.2.3.4.5.6");
  ds->putAndInsertString(DCM_Modality, "CT");
  ds->putAndInsertUint16(DCM_Rows, rows);
  ds->putAndInsertUint16(DCM_Columns, columns);
  ds->putAndInsertUint16(DCM_SamplesPerPixel, 1);
  ds->putAndInsertString(DCM_PhotometricInterpretation, "MONOCHROME2");
  ds->putAndInsertUint16(DCM_BitsAllocated, 16);
  ds->putAndInsertUint16(DCM_BitsStored, 16);
  ds->putAndInsertUint16(DCM_HighBit, 15);
  ds->putAndInsertUint16(DCM_PixelRepresentation, 1);
}

}  // namespace

TEST(DicomLoaderRobustness, CorruptFileNamesTheFile) {
  TempDir dir;
  std::string bytes(128, '\0');
  bytes += "DICM";
  std::mt19937 rng(1);
  for (int i = 0; i < 4096; ++i) {
    bytes += static_cast<char>(rng() & 0xff);
  }
  const fs::path file = dir / "corrupt.dcm";
  std::ofstream(file, std::ios::binary) << bytes;
  expectErrorNaming([&] { load(seriesOf({file})); }, file.string());
}

TEST(DicomLoaderRobustness, TruncatedPixelDataNamesTheFile) {
  for (auto syntax :
       {DicomTransferSyntax::ExplicitLittleEndian, DicomTransferSyntax::JpegLsLossless,
        DicomTransferSyntax::Rle, DicomTransferSyntax::DeflatedExplicitLittleEndian}) {
    TempDir dir;
    const auto files = writeSeries(*makeCt(axialGeometry(64, 64, 1)), dir.path(), syntax);
    const auto size = fs::file_size(files[0]);
    fs::resize_file(files[0], size - (size - 1000) / 2);  // cut inside the pixel data
    expectErrorNaming([&] { load(seriesOf(files)); }, files[0].string());
    NullProgress progress;
    const auto scan = scanDicomFolder(dir.path(), progress);
    // The header scan may or may not notice; if it lists the series, loading must fail cleanly.
    if (!scan.problems.empty()) {
      EXPECT_NE(scan.problems[0].file.find(files[0].filename().string()), std::string::npos);
    } else {
      ASSERT_EQ(scan.allSeries().size(), 1u) << toString(syntax);
      expectErrorNaming([&] { load(*scan.allSeries()[0]); }, files[0].string());
    }
  }
}

TEST(DicomLoaderRobustness, PixelDataShortByAFewBytesNamesTheFile) {
  for (auto syntax :
       {DicomTransferSyntax::ExplicitLittleEndian, DicomTransferSyntax::ImplicitLittleEndian,
        DicomTransferSyntax::JpegLossless}) {
    TempDir dir;
    const auto files = writeSeries(*makeCt(axialGeometry(64, 64, 2)), dir.path(), syntax);
    fs::resize_file(files[1], fs::file_size(files[1]) - 3);
    expectErrorNaming([&] { load(seriesOf(files)); }, files[1].string());
  }
}

// Found by DicomLoaderFuzzer: DCMTK's RLE decoder read past the fragment when a segment offset
// in the RLE header pointed outside it.
TEST(DicomLoaderRobustness, RleSegmentOffsetOutsideTheFragment) {
  TempDir dir;
  const auto files =
      writeSeries(*makeCt(axialGeometry(16, 16, 1)), dir.path(), DicomTransferSyntax::Rle);
  DcmFileFormat ff;
  ASSERT_TRUE(ff.loadFile(files[0].c_str()).good());
  DcmElement* element = nullptr;
  ASSERT_TRUE(ff.getDataset()->findAndGetElement(DCM_PixelData, element).good());
  DcmPixelSequence* sequence = nullptr;
  ASSERT_TRUE(static_cast<DcmPixelData*>(element)
                  ->getEncapsulatedRepresentation(EXS_RLELossless, nullptr, sequence)
                  .good());
  DcmPixelItem* fragment = nullptr;
  ASSERT_TRUE(sequence->getItem(fragment, 1).good());
  Uint8* bytes = nullptr;
  ASSERT_TRUE(fragment->getUint8Array(bytes).good());
  bytes[8] = bytes[9] = bytes[10] = bytes[11] = 0xff;  // second segment offset: 4 GiB
  ASSERT_TRUE(ff.saveFile(files[0].c_str(), EXS_RLELossless).good());
  const Error e = expectErrorNaming([&] { load(seriesOf(files)); }, files[0].string());
  EXPECT_NE(std::string(e.what()).find("outside"), std::string::npos) << e.what();
}

TEST(DicomLoaderRobustness, HugeClaimedSizeIsRefusedWithoutAllocating) {
  TempDir dir;
  const fs::path file = dir / "huge.dcm";
  DcmFileFormat ff;
  fillHeader(ff.getDataset(), 65535, 65535);
  std::vector<Uint16> pixels(64 * 64, 7);
  ff.getDataset()->putAndInsertUint16Array(DCM_PixelData, pixels.data(),
                                           static_cast<unsigned long>(pixels.size()));
  ASSERT_TRUE(ff.saveFile(file.c_str(), EXS_LittleEndianExplicit).good());
  const Error e = expectErrorNaming([&] { load(seriesOf({file})); }, file.string());
  EXPECT_NE(std::string(e.what()).find("65535"), std::string::npos) << e.what();

  NullProgress progress;
  const auto scan = scanDicomFolder(dir.path(), progress);
  ASSERT_EQ(scan.problems.size(), 1u);
  EXPECT_NE(scan.problems[0].message.find("65535"), std::string::npos);
}

TEST(DicomLoaderRobustness, ManyFramesClaimedIsRefused) {
  TempDir dir;
  const fs::path file = dir / "frames.dcm";
  DcmFileFormat ff;
  fillHeader(ff.getDataset(), 64, 64);
  ff.getDataset()->putAndInsertString(DCM_NumberOfFrames, "2000000000");
  std::vector<Uint16> pixels(64 * 64, 7);
  ff.getDataset()->putAndInsertUint16Array(DCM_PixelData, pixels.data(),
                                           static_cast<unsigned long>(pixels.size()));
  ASSERT_TRUE(ff.saveFile(file.c_str(), EXS_LittleEndianExplicit).good());
  expectErrorNaming([&] { load(seriesOf({file})); }, file.string());
}

TEST(DicomLoaderRobustness, NonImageFilesNameTheFile) {
  TempDir dir;
  const fs::path text = dir / "notes.txt";
  std::ofstream(text) << "hello";
  expectErrorNaming([&] { load(seriesOf({text})); }, text.string());

  const fs::path sr = dir / "sr.dcm";
  DcmFileFormat ff;
  ff.getDataset()->putAndInsertString(DCM_SOPClassUID, UID_BasicTextSRStorage);
  ff.getDataset()->putAndInsertString(DCM_SOPInstanceUID, "1.2.3");
  ASSERT_TRUE(ff.saveFile(sr.c_str(), EXS_LittleEndianExplicit).good());
  const Error e = expectErrorNaming([&] { load(seriesOf({sr})); }, sr.string());
  EXPECT_NE(std::string(e.what()).find("not an image"), std::string::npos);

  expectErrorNaming([&] { load(seriesOf({dir / "missing.dcm"})); }, "missing.dcm");
  EXPECT_THROW(load(DicomSeries{}), Error);
}

TEST(DicomLoaderRobustness, UnreadableFilesAmongGoodOnesAreSkippedWithAWarning) {
  TempDir dir;
  const auto files = writeSeries(*makeCt(axialGeometry(8, 8, 4)), dir.path());
  const fs::path junk = dir / "junk.dcm";
  std::ofstream(junk) << "junk";
  auto s = seriesOf(files);
  s.files.push_back(junk.string());
  const auto v = load(s);
  EXPECT_EQ(v->geometry().size[2], 4u);
  ASSERT_FALSE(v->info().warnings.empty());
  EXPECT_NE(v->info().warnings[0].find("junk.dcm"), std::string::npos);
}

TEST(DicomLoaderRobustness, MixedSizesNameTheFile) {
  TempDir dir;
  const auto a = writeSeries(*makeCt(axialGeometry(8, 8, 2)), dir / "a");
  ImageGeometry g = axialGeometry(10, 8, 1);
  g.origin[2] = 100;
  const auto b = writeSeries(*makeCt(g), dir / "b");
  auto s = seriesOf(a);
  s.files.push_back(b[0].string());
  const Error e = expectErrorNaming([&] { load(s); }, b[0].string());
  EXPECT_NE(std::string(e.what()).find("mixed image sizes"), std::string::npos) << e.what();
}

TEST(DicomLoaderRobustness, MixedOrientationsNameAFile) {
  TempDir dir;
  const auto a = writeSeries(*makeCt(axialGeometry(8, 8, 2)), dir / "a");
  ImageGeometry g = axialGeometry(8, 8, 2);
  g.direction = {1, 0, 0, 0, 0, 1, 0, -1, 0};
  const auto b = writeSeries(*makeCt(g), dir / "b");
  auto s = seriesOf(a);
  s.files.push_back(b[1].string());
  const Error e = expectErrorNaming([&] { load(s); }, b[1].string());
  EXPECT_NE(std::string(e.what()).find("orientation"), std::string::npos) << e.what();
}

TEST(DicomLoaderRobustness, UnsupportedTransferSyntaxIsNamed) {
  TempDir dir;
  const fs::path file = dir / "mpeg.dcm";
  DcmFileFormat ff;
  DcmDataset* ds = ff.getDataset();
  fillHeader(ds, 8, 8);
  // An encapsulated MPEG-2 "video": DCMTK parses it, but no codec decodes it.
  auto* pixelSeq = new DcmPixelSequence(DcmTag(DCM_PixelData, EVR_OB));
  pixelSeq->insert(new DcmPixelItem(DcmTag(DCM_Item, EVR_OB)));  // empty offset table
  auto* fragment = new DcmPixelItem(DcmTag(DCM_Item, EVR_OB));
  Uint8 junk[16] = {0, 0, 1, 0xb3};
  fragment->putUint8Array(junk, sizeof junk);
  pixelSeq->insert(fragment);
  auto* pixelData = new DcmPixelData(DCM_PixelData);
  pixelData->putOriginalRepresentation(EXS_MPEG2MainProfileAtMainLevel, nullptr, pixelSeq);
  ds->insert(pixelData);
  ASSERT_TRUE(ff.saveFile(file.c_str(), EXS_MPEG2MainProfileAtMainLevel).good());
  const Error e = expectErrorNaming([&] { load(seriesOf({file})); }, file.string());
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(std::string(e.what()).find("MPEG2"), std::string::npos) << e.what();
}

TEST(DicomLoaderRobustness, ColourImagesThatCannotBeShownRightAreRefusedNamingTheFile) {
  TempDir dir;
  // photometric, samples per pixel, the kind of error, what the message names
  struct Case {
    const char* photometric;
    Uint16 samples;
    ErrorKind kind;
    const char* says;
  };
  const Case cases[] = {
      {"HSV", 3, ErrorKind::Unsupported, "HSV"},                 // retired, not read
      {"RGB", 1, ErrorKind::InvalidInput, "does not fit"},       // one sample cannot be RGB
      {"PALETTE COLOR", 1, ErrorKind::InvalidInput, "Palette"},  // no tables
  };
  for (const Case& c : cases) {
    const fs::path file = dir / (std::string(c.photometric).substr(0, 3) + ".dcm");
    DcmFileFormat ff;
    fillHeader(ff.getDataset(), 4, 4);
    ff.getDataset()->putAndInsertUint16(DCM_SamplesPerPixel, c.samples);
    ff.getDataset()->putAndInsertString(DCM_PhotometricInterpretation, c.photometric);
    ff.getDataset()->putAndInsertUint16(DCM_BitsAllocated, 8);
    ff.getDataset()->putAndInsertUint16(DCM_BitsStored, 8);
    ff.getDataset()->putAndInsertUint16(DCM_HighBit, 7);
    std::vector<Uint8> pixels(4 * 4 * c.samples, 9);
    ff.getDataset()->putAndInsertUint8Array(DCM_PixelData, pixels.data(), pixels.size());
    ASSERT_TRUE(ff.saveFile(file.c_str(), EXS_LittleEndianExplicit).good());
    const Error e = expectErrorNaming([&] { load(seriesOf({file})); }, file.string());
    EXPECT_EQ(e.kind(), c.kind) << c.photometric;
    EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
  }
}

TEST(DicomLoaderRobustness, RgbImagesOpenInColourWithTheirLuminanceAsVoxels) {
  TempDir dir;
  const fs::path file = dir / "rgb.dcm";
  DcmFileFormat ff;
  fillHeader(ff.getDataset(), 4, 4);
  ff.getDataset()->putAndInsertUint16(DCM_SamplesPerPixel, 3);
  ff.getDataset()->putAndInsertString(DCM_PhotometricInterpretation, "RGB");
  ff.getDataset()->putAndInsertUint16(DCM_BitsAllocated, 8);
  ff.getDataset()->putAndInsertUint16(DCM_BitsStored, 8);
  ff.getDataset()->putAndInsertUint16(DCM_HighBit, 7);
  std::vector<Uint8> rgb(4 * 4 * 3);
  for (std::size_t p = 0; p < 16; ++p) {
    rgb[3 * p] = 200;  // red
    rgb[3 * p + 1] = static_cast<Uint8>(10 * p);
    rgb[3 * p + 2] = 0;
  }
  ff.getDataset()->putAndInsertUint8Array(DCM_PixelData, rgb.data(), rgb.size());
  ASSERT_TRUE(ff.saveFile(file.c_str(), EXS_LittleEndianExplicit).good());
  const VolumePtr v = load(seriesOf({file}));
  ASSERT_TRUE(v->hasColour());
  EXPECT_EQ(v->colourAt(3, 1, 0), (std::array<double, 3>{200, 70, 0}));
  EXPECT_EQ(v->valueAt(3, 1, 0), std::floor(0.299 * 200 + 0.587 * 70 + 0.5));
  ASSERT_FALSE(v->info().windows.empty());
  EXPECT_EQ(v->info().windows.front().width, 255);  // shown as stored
}

TEST(DicomLoaderRobustness, CancelStopsTheLoad) {
  TempDir dir;
  const auto files = writeSeries(*makeCt(axialGeometry(8, 8, 10)), dir.path());
  CancelToken token;
  token.cancel();
  NullProgress progress(token);
  EXPECT_THROW(loadDicomSeries(seriesOf(files), progress), CancelledError);
}
