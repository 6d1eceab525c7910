// Write a volume as DICOM and read it back: every transfer syntax, geometry, rescale,
// MONOCHROME1, windows, attribute overrides, deterministic output.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <numbers>
#include <random>

#include "DicomTestSupport.h"
#include "TempDir.h"

using namespace delineate::core;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

std::string syntaxName(DicomTransferSyntax s) {
  std::string n = toString(s);
  std::string out;
  for (char c : n) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
    }
  }
  return out;
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

class DicomLosslessRoundTrip : public ::testing::TestWithParam<DicomTransferSyntax> {};

TEST_P(DicomLosslessRoundTrip, Int16CtIsVoxelIdentical) {
  TempDir dir;
  const auto ct = makeCt();
  const auto files = writeSeries(*ct, dir.path(), GetParam());
  ASSERT_EQ(files.size(), ct->geometry().size[2]);
  const auto loaded = loadFolder(dir.path());
  expectSameGeometry(ct->geometry(), loaded->geometry());
  expectSameVoxels(*ct, *loaded);
  EXPECT_EQ(loaded->info().modality, "CT");
  EXPECT_EQ(loaded->info().patientName, "Test^Patient");
  EXPECT_EQ(loaded->info().seriesInstanceUid, ct->info().seriesInstanceUid);
  EXPECT_FALSE(loaded->info().transferSyntax.empty());
  EXPECT_TRUE(loaded->info().warnings.empty()) << loaded->info().warnings.front();
}

TEST_P(DicomLosslessRoundTrip, UInt16AboveInt16RangeStaysUInt16) {
  TempDir dir;
  const auto mr = makeVolume(ScalarType::UInt16, axialGeometry(16, 12, 3), fixedInfo("MR"),
                             [](std::size_t i, std::size_t j, std::size_t k) {
                               return static_cast<double>((i * 4099 + j * 131 + k * 7) % 65536);
                             });
  writeSeries(*mr, dir.path(), GetParam());
  const auto loaded = loadFolder(dir.path());
  expectSameVoxels(*mr, *loaded);
  EXPECT_EQ(loaded->info().modality, "MR");
}

TEST_P(DicomLosslessRoundTrip, UInt8SecondaryCaptureIsVoxelIdentical) {
  TempDir dir;
  // Odd width and height: 8-bit frames of odd byte size need DCMTK's pad byte.
  const auto sc = makeVolume(ScalarType::UInt8, axialGeometry(15, 9, 3), fixedInfo("OT"),
                             [](std::size_t i, std::size_t j, std::size_t k) {
                               return static_cast<double>((i * 17 + j * 5 + k * 40) % 256);
                             });
  writeSeries(*sc, dir.path(), GetParam());
  const auto loaded = loadFolder(dir.path());
  expectSameVoxels(*sc, *loaded);
  expectSameGeometry(sc->geometry(), loaded->geometry());
}

INSTANTIATE_TEST_SUITE_P(AllLossless, DicomLosslessRoundTrip,
                         ::testing::Values(DicomTransferSyntax::ImplicitLittleEndian,
                                           DicomTransferSyntax::ExplicitLittleEndian,
                                           DicomTransferSyntax::ExplicitBigEndian,
                                           DicomTransferSyntax::DeflatedExplicitLittleEndian,
                                           DicomTransferSyntax::Rle,
                                           DicomTransferSyntax::JpegLossless,
                                           DicomTransferSyntax::JpegLsLossless),
                         [](const auto& info) { return syntaxName(info.param); });

TEST(DicomRoundTrip, JpegBaselineIsCloseFor8Bit) {
  TempDir dir;
  const auto img =
      makeVolume(ScalarType::UInt8, axialGeometry(32, 32, 2), fixedInfo("OT"),
                 [](std::size_t i, std::size_t j, std::size_t k) {
                   return 60.0 + 2.0 * static_cast<double>(i + j) + 10.0 * static_cast<double>(k);
                 });
  writeSeries(*img, dir.path(), DicomTransferSyntax::JpegBaseline);
  const auto loaded = loadFolder(dir.path());
  ASSERT_EQ(loaded->scalarType(), ScalarType::UInt8);
  ASSERT_EQ(loaded->voxels().count(), img->voxels().count());
  const auto* a = img->data<std::uint8_t>();
  const auto* b = loaded->data<std::uint8_t>();
  int worst = 0;
  for (std::size_t n = 0; n < img->voxels().count(); ++n) {
    worst = std::max(worst, std::abs(int(a[n]) - int(b[n])));
  }
  EXPECT_LE(worst, 6);

  EXPECT_NE(loaded->info().transferSyntax.find("JPEG"), std::string::npos);
}

TEST(DicomRoundTrip, JpegBaselineRefusesWideValues) {
  TempDir dir;
  try {
    writeSeries(*makeCt(), dir.path(), DicomTransferSyntax::JpegBaseline);
    FAIL() << "16-bit CT accepted for JPEG baseline";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("8-bit"), std::string::npos) << e.what();
  }
}

TEST(DicomRoundTrip, ShuffledFileNamesLoadInSliceOrder) {
  TempDir dir;
  const auto ct = makeCt(axialGeometry(8, 8, 12));
  const auto files = writeSeries(*ct, dir / "orig");
  // Rename to names whose order has nothing to do with the position; clear InstanceNumber order
  // too by writing slices with reversed instance numbers through a second series.
  std::vector<std::size_t> perm(files.size());
  for (std::size_t i = 0; i < perm.size(); ++i) {
    perm[i] = i;
  }
  std::mt19937 rng(7);
  std::shuffle(perm.begin(), perm.end(), rng);
  fs::create_directories(dir / "shuffled");
  for (std::size_t i = 0; i < files.size(); ++i) {
    fs::rename(files[i], dir / "shuffled" / ("x" + std::to_string(perm[i]) + ".dcm"));
  }
  const auto loaded = loadFolder(dir / "shuffled");
  expectSameVoxels(*ct, *loaded);
  expectSameGeometry(ct->geometry(), loaded->geometry());
  ASSERT_EQ(loaded->info().sourceFiles.size(), files.size());
  EXPECT_EQ(fs::path(loaded->info().sourceFiles[0]).filename(),
            "x" + std::to_string(perm[0]) + ".dcm");
}

TEST(DicomRoundTrip, PositionsWinOverInstanceNumbers) {
  TempDir dir;
  // Slice axis pointing to the feet: instance numbers rise while positions along the normal
  // (row x column = +z) fall. The loader must order by position.
  ImageGeometry g = axialGeometry(8, 8, 5);
  g.direction = {1, 0, 0, 0, 1, 0, 0, 0, -1};
  const auto ct = makeCt(g);
  writeSeries(*ct, dir.path());
  const auto loaded = loadFolder(dir.path());
  const std::size_t last = g.size[2] - 1;
  const Vec3 p0 = loaded->geometry().indexToWorld({0, 0, 0});
  const Vec3 q = ct->geometry().indexToWorld({0, 0, static_cast<double>(last)});
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(p0[a], q[a], 1e-4);
  }
  EXPECT_NEAR(loaded->geometry().direction[8], 1.0, 1e-9);
  for (std::size_t k = 0; k <= last; ++k) {
    EXPECT_EQ(loaded->valueAt(3, 4, k), ct->valueAt(3, 4, last - k));
  }
}

TEST(DicomRoundTrip, CoronalAndObliqueGeometry) {
  for (int variant = 0; variant < 2; ++variant) {
    TempDir dir;
    ImageGeometry g = axialGeometry(10, 8, 4);
    if (variant == 0) {
      // Coronal: rows run left->right, columns head->foot, slices anterior->posterior.
      g.direction = {1, 0, 0, 0, 0, 1, 0, -1, 0};
    } else {
      const double a = std::numbers::pi / 7, b = std::numbers::pi / 9;
      // Rotation about z then about x: orthonormal, oblique to every axis.
      const double ca = std::cos(a), sa = std::sin(a), cb = std::cos(b), sb = std::sin(b);
      g.direction = {ca, -sa * cb, sa * sb, sa, ca * cb, -ca * sb, 0, sb, cb};
    }
    const auto ct = makeCt(g);
    writeSeries(*ct, dir.path());
    const auto loaded = loadFolder(dir.path());
    expectSameGeometry(ct->geometry(), loaded->geometry());
    expectSameVoxels(*ct, *loaded);
    EXPECT_EQ(loaded->geometry().orientationCode(), ct->geometry().orientationCode());
  }
}

TEST(DicomRoundTrip, Monochrome1MammogramSurvives) {
  TempDir dir;
  ImageGeometry g;
  g.size = {40, 30, 1};
  g.spacing = {0.07, 0.07, 1};
  VolumeInfo info = fixedInfo("MG");
  info.photometric = "MONOCHROME1";
  info.laterality = "L";
  info.viewPosition = "CC";
  const auto mg =
      makeVolume(ScalarType::UInt16, g, info, [](std::size_t i, std::size_t j, std::size_t) {
        return static_cast<double>((i * 97 + j * 13) % 4096);
      });
  writeSeries(*mg, dir.path(), DicomTransferSyntax::JpegLsLossless);
  const auto loaded = loadFolder(dir.path());
  EXPECT_EQ(loaded->info().photometric, "MONOCHROME1");
  EXPECT_EQ(loaded->info().laterality, "L");
  EXPECT_EQ(loaded->info().viewPosition, "CC");
  EXPECT_EQ(loaded->info().sopClassUid, "1.2.840.10008.5.1.4.1.1.1.2");
  EXPECT_EQ(loaded->geometry().size[2], 1u);
  // 12-bit unsigned values fit Int16: the loader picks Int16, same values.
  ASSERT_EQ(loaded->voxels().count(), mg->voxels().count());
  for (std::size_t n = 0; n < mg->voxels().count(); n += 7) {
    ASSERT_EQ(loaded->valueAt(n % 40, (n / 40) % 30, 0), mg->valueAt(n % 40, (n / 40) % 30, 0));
  }
}

TEST(DicomRoundTrip, IntegralRescaleGivesInt16) {
  TempDir dir;
  // Stored values 0..3000 with RescaleIntercept -1024 (the classic CT encoding).
  const auto raw = makeVolume(ScalarType::UInt16, axialGeometry(12, 10, 3), fixedInfo("CT"),
                              [](std::size_t i, std::size_t j, std::size_t k) {
                                return static_cast<double>((i * 101 + j * 7 + k * 500) % 3001);
                              });
  writeSeries(*raw, dir.path(), DicomTransferSyntax::ExplicitLittleEndian,
              {{"RescaleIntercept", "-1024"}, {"RescaleSlope", "1"}});
  const auto loaded = loadFolder(dir.path());
  ASSERT_EQ(loaded->scalarType(), ScalarType::Int16);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(loaded->valueAt(5, 4, k), raw->valueAt(5, 4, k) - 1024);
  }
}

TEST(DicomRoundTrip, FractionalRescaleGivesFloat32) {
  TempDir dir;
  const auto raw = makeVolume(ScalarType::Int16, axialGeometry(12, 10, 3), fixedInfo("MR"),
                              [](std::size_t i, std::size_t j, std::size_t k) {
                                return static_cast<double>(i + 10 * j + 100 * k) - 50;
                              });
  writeSeries(*raw, dir.path(), DicomTransferSyntax::JpegLsLossless,
              {{"0028,1053", "0.25"}, {"(0028,1052)", "10.5"}});
  const auto loaded = loadFolder(dir.path());
  ASSERT_EQ(loaded->scalarType(), ScalarType::Float32);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_FLOAT_EQ(loaded->valueAt(3, 2, k), raw->valueAt(3, 2, k) * 0.25 + 10.5);
  }
}

TEST(DicomRoundTrip, FloatVolumeIsWrittenWithASlope) {
  TempDir dir;
  const auto pet = makeVolume(ScalarType::Float32, axialGeometry(9, 7, 3), fixedInfo("PT"),
                              [](std::size_t i, std::size_t j, std::size_t k) {
                                return 0.37 * static_cast<double>(i) -
                                       1.5 * static_cast<double>(j) + 0.01 * static_cast<double>(k);
                              });
  writeSeries(*pet, dir.path());
  const auto loaded = loadFolder(dir.path());
  ASSERT_EQ(loaded->scalarType(), ScalarType::Float32);
  const auto [lo, hi] = pet->valueRange();
  const double step = (hi - lo) / 65535.0;
  for (std::size_t n = 0; n < pet->voxels().count(); ++n) {
    ASSERT_NEAR(loaded->data<float>()[n], pet->data<float>()[n], step * 0.51 + 1e-6);
  }
}

TEST(DicomRoundTrip, WindowsAndIdentitySurvive) {
  TempDir dir;
  VolumeInfo info = fixedInfo("CT");
  info.windows = {{"Abdomen", 50, 350}, {"Liver", 80, 150}};
  const auto ct = makeCt(axialGeometry(8, 8, 2), info);
  writeSeries(*ct, dir.path());
  const auto loaded = loadFolder(dir.path());
  const auto& w = loaded->info().windows;
  ASSERT_GE(w.size(), 6u);
  EXPECT_EQ(w[0].name, "Abdomen");
  EXPECT_DOUBLE_EQ(w[0].center, 50);
  EXPECT_DOUBLE_EQ(w[0].width, 350);
  EXPECT_EQ(w[1].name, "Liver");
  EXPECT_EQ(w[2].name, "Soft tissue");
  const VolumeInfo& li = loaded->info();
  EXPECT_EQ(li.studyInstanceUid, info.studyInstanceUid);
  EXPECT_EQ(li.frameOfReferenceUid, info.frameOfReferenceUid);
  EXPECT_EQ(li.studyDate, "20240102");
  EXPECT_EQ(li.seriesNumber, 3);
  EXPECT_EQ(li.sopClassUid, "1.2.840.10008.5.1.4.1.1.2");
  EXPECT_EQ(li.sourcePath, dir.path().string());
}

TEST(DicomRoundTrip, MrWithoutWindowsGetsAutoWindows) {
  TempDir dir;
  const auto mr = makeVolume(
      ScalarType::Int16, axialGeometry(16, 16, 3), fixedInfo("MR"),
      [](std::size_t i, std::size_t, std::size_t) { return static_cast<double>(i * 10); });
  writeSeries(*mr, dir.path());
  const auto loaded = loadFolder(dir.path());
  ASSERT_FALSE(loaded->info().windows.empty());
  EXPECT_EQ(loaded->info().windows.front().name, "Auto");
}

TEST(DicomRoundTrip, AttributeOverridesByKeywordAndTag) {
  TempDir dir;
  const auto ct = makeCt(axialGeometry(8, 8, 2));
  writeSeries(*ct, dir.path(), DicomTransferSyntax::ExplicitLittleEndian,
              {{"SeriesDescription", "Overridden"}, {"0020,0062", "R"}});
  const auto loaded = loadFolder(dir.path());
  EXPECT_EQ(loaded->info().seriesDescription, "Overridden");
  EXPECT_EQ(loaded->info().laterality, "R");

  TempDir bad;
  try {
    writeSeries(*ct, bad.path(), DicomTransferSyntax::ExplicitLittleEndian,
                {{"NoSuchKeyword", "x"}});
    FAIL() << "unknown keyword accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("NoSuchKeyword"), std::string::npos);
  }
  try {
    writeSeries(*ct, bad.path(), DicomTransferSyntax::ExplicitLittleEndian, {{"Rows", "4"}});
    FAIL() << "Rows override accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
  }
}

TEST(DicomRoundTrip, OutputIsDeterministic) {
  TempDir dir;
  const auto ct = makeCt(axialGeometry(8, 8, 3));
  for (auto syntax :
       {DicomTransferSyntax::ExplicitLittleEndian, DicomTransferSyntax::JpegLsLossless,
        DicomTransferSyntax::DeflatedExplicitLittleEndian}) {
    const auto a = writeSeries(*ct, dir / ("a" + syntaxName(syntax)), syntax);
    const auto b = writeSeries(*ct, dir / ("b" + syntaxName(syntax)), syntax);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string x = readAll(a[i]), y = readAll(b[i]);
      std::size_t d = 0;
      while (d < x.size() && d < y.size() && x[d] == y[d]) {
        ++d;
      }
      EXPECT_TRUE(x == y) << a[i] << " differs at byte " << d << " of " << x.size() << "/"
                          << y.size();
    }
  }
}

TEST(DicomRoundTrip, SopInstanceUidsDifferPerSlice) {
  TempDir dir;
  const auto ct = makeCt(axialGeometry(8, 8, 3));
  writeSeries(*ct, dir.path());
  NullProgress progress;
  const auto series = onlySeries(scanDicomFolder(dir.path(), progress));
  EXPECT_EQ(series.files.size(), 3u);
  EXPECT_EQ(series.frames, 3u);
  EXPECT_EQ(series.rows, 8u);
  EXPECT_EQ(series.modality, "CT");
}

// The size caps against the file size must not refuse legitimately tiny compressed files.
TEST(DicomRoundTrip, BlankImagesCompressHardButStillLoad) {
  for (auto syntax :
       {DicomTransferSyntax::Rle, DicomTransferSyntax::JpegLossless,
        DicomTransferSyntax::JpegLsLossless, DicomTransferSyntax::DeflatedExplicitLittleEndian}) {
    TempDir dir;
    const auto blank = makeVolume(ScalarType::UInt16, axialGeometry(1024, 1024, 1), fixedInfo("MR"),
                                  [](std::size_t, std::size_t, std::size_t) { return 0.0; });
    const auto files = writeSeries(*blank, dir.path(), syntax);
    const auto loaded = loadFolder(dir.path());
    expectSameGeometry(blank->geometry(), loaded->geometry());
    EXPECT_EQ(loaded->valueRange(), std::make_pair(0.0, 0.0)) << toString(syntax);
    RecordProperty(syntaxName(syntax), std::to_string(fs::file_size(files[0])));
  }
}
