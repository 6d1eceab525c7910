// Folder scans: grouping into patients/studies/series, splitting, skipping what is not an image,
// and reporting files that look like DICOM but cannot be read.
#include <gtest/gtest.h>

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <fstream>
#include <random>

#include "DicomTestSupport.h"
#include "TempDir.h"

using namespace delineate::core;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

void writeText(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// A valid DICOM object without pixels (a Basic Text SR header is enough for the scanner).
void writeNonImage(const fs::path& p) {
  DcmFileFormat ff;
  DcmDataset* ds = ff.getDataset();
  ds->putAndInsertString(DCM_SOPClassUID, UID_BasicTextSRStorage);
  ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.3.4.5.6.7");
  ds->putAndInsertString(DCM_SeriesInstanceUID, "1.2.3.4.5.6");
  ds->putAndInsertString(DCM_StudyInstanceUID, "1.2.3.4.5");
  ds->putAndInsertString(DCM_Modality, "SR");
  ASSERT_TRUE(ff.saveFile(p.c_str(), EXS_LittleEndianExplicit).good());
}

}  // namespace

TEST(DicomScanner, EmptyFolderGivesNothing) {
  TempDir dir;
  NullProgress progress;
  const auto scan = scanDicomFolder(dir.path(), progress);
  EXPECT_TRUE(scan.patients.empty());
  EXPECT_TRUE(scan.problems.empty());
  EXPECT_EQ(scan.filesScanned, 0u);
  EXPECT_TRUE(scan.allSeries().empty());
}

TEST(DicomScanner, MissingFolderIsAnIoError) {
  TempDir dir;
  NullProgress progress;
  try {
    scanDicomFolder(dir / "nope", progress);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(e.where().find("nope"), std::string::npos);
  }
}

TEST(DicomScanner, TwoSeriesInNestedFoldersPlusClutter) {
  TempDir dir;
  VolumeInfo a = fixedInfo("CT");
  VolumeInfo b = fixedInfo("MR");
  b.seriesInstanceUid = "1.2.826.0.1.3680043.10.1234.1.9";
  b.seriesNumber = 1;
  b.seriesDescription = "T1";
  writeSeries(*makeCt(axialGeometry(8, 8, 4), a), dir / "x" / "ct");
  writeSeries(*makeCt(axialGeometry(6, 6, 3), b), dir / "y" / "deeper" / "mr");
  writeText(dir / "README.txt", "not an image\n");
  writeText(dir / "x" / "thumbs.db", std::string(300, '\x01'));
  writeNonImage(dir / "report.dcm");

  NullProgress progress;
  const auto scan = scanDicomFolder(dir.path(), progress);
  EXPECT_EQ(scan.filesScanned, 4u + 3u + 3u);
  EXPECT_EQ(scan.nonDicomFiles, 3u);
  EXPECT_EQ(scan.nonImageDicomFiles, 1u);
  EXPECT_TRUE(scan.problems.empty());
  ASSERT_EQ(scan.patients.size(), 1u);
  ASSERT_EQ(scan.patients[0].studies.size(), 1u);
  const auto& study = scan.patients[0].studies[0];
  EXPECT_EQ(study.studyInstanceUid, a.studyInstanceUid);
  ASSERT_EQ(study.series.size(), 2u);
  EXPECT_EQ(study.series[0].description, "T1");  // series number 1 first
  EXPECT_EQ(study.series[0].files.size(), 3u);
  EXPECT_EQ(study.series[1].files.size(), 4u);
  EXPECT_EQ(study.series[1].patientId, "P001");
  NullProgress p2;
  for (const DicomSeries* s : scan.allSeries()) {
    const auto v = loadDicomSeries(*s, p2);
    EXPECT_EQ(v->geometry().size[2], s->files.size());
  }
}

TEST(DicomScanner, SplitsASeriesByOrientationAndSize) {
  TempDir dir;
  const VolumeInfo info = fixedInfo("CT");
  ImageGeometry coronal = axialGeometry(8, 8, 3);
  coronal.direction = {1, 0, 0, 0, 0, 1, 0, -1, 0};
  writeSeries(*makeCt(axialGeometry(8, 8, 4), info), dir.path());
  DicomWriteOptions options;
  options.filePrefix = "COR";
  NullProgress progress;
  writeDicomSeries(*makeCt(coronal, info), dir.path(), options, progress);
  options.filePrefix = "BIG";
  writeDicomSeries(*makeCt(axialGeometry(12, 10, 2), info), dir.path(), options, progress);

  const auto scan = scanDicomFolder(dir.path(), progress);
  const auto all = scan.allSeries();
  ASSERT_EQ(all.size(), 3u);
  std::size_t total = 0;
  for (const DicomSeries* s : all) {
    EXPECT_EQ(s->seriesInstanceUid, info.seriesInstanceUid);
    EXPECT_GT(s->part, 0);
    EXPECT_NE(s->description.find("[part"), std::string::npos) << s->description;
    total += s->files.size();
    const auto v = loadDicomSeries(*s, progress);
    EXPECT_EQ(v->geometry().size[2], s->files.size());
  }
  EXPECT_EQ(total, 9u);
  bool sawCoronal = false;
  for (const DicomSeries* s : all) {
    sawCoronal = sawCoronal || s->description.find("coronal") != std::string::npos;
  }
  EXPECT_TRUE(sawCoronal);
}

TEST(DicomScanner, CorruptFileWithPreambleIsAProblemNamingTheFile) {
  TempDir dir;
  std::string bytes(128, '\0');
  bytes += "DICM";
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; ++i) {
    bytes += static_cast<char>(rng() & 0xff);
  }
  writeText(dir / "corrupt.dcm", bytes);
  writeSeries(*makeCt(axialGeometry(8, 8, 2)), dir / "good");
  NullProgress progress;
  const auto scan = scanDicomFolder(dir.path(), progress);
  ASSERT_EQ(scan.problems.size(), 1u);
  EXPECT_NE(scan.problems[0].file.find("corrupt.dcm"), std::string::npos);
  EXPECT_FALSE(scan.problems[0].message.empty());
  EXPECT_EQ(scan.allSeries().size(), 1u);
}

TEST(DicomScanner, CancelStopsTheScan) {
  TempDir dir;
  writeSeries(*makeCt(axialGeometry(8, 8, 20)), dir.path());
  CancelToken token;
  token.cancel();
  NullProgress progress(token);
  EXPECT_THROW(scanDicomFolder(dir.path(), progress), CancelledError);
}

TEST(DicomScanner, MammogramViewsInOneSeriesBecomeSeparateImages) {
  TempDir dir;
  ImageGeometry g;
  g.size = {20, 30, 1};
  g.spacing = {0.1, 0.1, 1};
  NullProgress progress;
  int n = 0;
  for (const char* lat : {"L", "R"}) {
    for (const char* view : {"CC", "MLO"}) {
      VolumeInfo info = fixedInfo("MG");
      info.laterality = lat;
      info.viewPosition = view;
      info.photometric = "MONOCHROME1";
      DicomWriteOptions options;
      options.filePrefix = std::string(lat) + view;
      options.attributes = {{"InstanceNumber", std::to_string(++n)}};
      writeDicomSeries(*makeVolume(ScalarType::UInt16, g, info,
                                   [&](std::size_t i, std::size_t, std::size_t) {
                                     return static_cast<double>(i + 100 * n);
                                   }),
                       dir.path(), options, progress);
    }
  }
  const auto scan = scanDicomFolder(dir.path(), progress);
  const auto all = scan.allSeries();
  ASSERT_EQ(all.size(), 4u);
  std::vector<std::string> names;
  for (const DicomSeries* s : all) {
    ASSERT_EQ(s->files.size(), 1u);
    names.push_back(s->description);
    const auto v = loadDicomSeries(*s, progress);
    EXPECT_EQ(v->geometry().size[2], 1u);
    EXPECT_TRUE(v->info().warnings.empty());
  }
  std::sort(names.begin(), names.end());
  EXPECT_NE(names[0].find("L CC]"), std::string::npos) << names[0];
  EXPECT_NE(names[3].find("R MLO]"), std::string::npos) << names[3];
}
