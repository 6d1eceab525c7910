// Written files checked by an independent validator: dciodvfy from dicom3tools.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "DicomTestSupport.h"
#include "TempDir.h"

using namespace delineate::core;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

constexpr const char* kDciodvfy = "/usr/bin/dciodvfy";

// Runs dciodvfy on `file`; returns its combined output.
std::string validate(const fs::path& file, const fs::path& scratch) {
  const fs::path log = scratch / "dciodvfy.log";
  const std::string cmd =
      std::string(kDciodvfy) + " '" + file.string() + "' > '" + log.string() + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  (void)rc;  // dciodvfy's exit status does not distinguish warnings from errors
  std::ifstream in(log);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Lines that report errors (not warnings).
std::string errors(const std::string& output) {
  std::string out;
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) {
      end = output.size();
    }
    const std::string line = output.substr(start, end - start);
    if (line.find("Error") != std::string::npos || line.find("Abort") != std::string::npos) {
      out += line + "\n";
    }
    start = end + 1;
  }
  return out;
}

class DicomValidation : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kDciodvfy)) {
      GTEST_SKIP() << "dciodvfy (Debian package dicom3tools) is not installed";
    }
  }
};

}  // namespace

TEST_F(DicomValidation, CtFileHasNoErrors) {
  TempDir dir;
  VolumeInfo info = fixedInfo("CT");
  info.windows = {{"Abdomen", 50, 350}};
  const auto files = writeSeries(*makeCt(axialGeometry(16, 16, 3), info), dir / "ct");
  const std::string out = validate(files[1], dir.path());
  EXPECT_NE(out.find("CTImage"), std::string::npos) << out;
  EXPECT_EQ(errors(out), "") << out;
}

TEST_F(DicomValidation, CompressedCtFileHasNoErrors) {
  TempDir dir;
  for (auto syntax : {DicomTransferSyntax::JpegLsLossless, DicomTransferSyntax::Rle,
                      DicomTransferSyntax::JpegLossless, DicomTransferSyntax::ExplicitBigEndian}) {
    const auto files = writeSeries(*makeCt(axialGeometry(16, 16, 2)),
                                   dir / ("ct" + std::to_string(static_cast<int>(syntax))), syntax);
    const std::string out = validate(files[0], dir.path());
    EXPECT_EQ(errors(out), "") << toString(syntax) << "\n" << out;
  }
}

TEST_F(DicomValidation, MrAndMammogramHaveNoErrors) {
  TempDir dir;
  const auto mr = makeVolume(
      ScalarType::Int16, axialGeometry(16, 16, 2), fixedInfo("MR"),
      [](std::size_t i, std::size_t j, std::size_t) { return static_cast<double>(i * j); });
  const auto mrFiles = writeSeries(*mr, dir / "mr");
  std::string out = validate(mrFiles[0], dir.path());
  EXPECT_NE(out.find("MRImage"), std::string::npos) << out;
  EXPECT_EQ(errors(out), "") << out;

  ImageGeometry g;
  g.size = {32, 24, 1};
  g.spacing = {0.1, 0.1, 1};
  VolumeInfo info = fixedInfo("MG");
  info.photometric = "MONOCHROME1";
  info.laterality = "R";
  info.viewPosition = "MLO";
  const auto mg = makeVolume(
      ScalarType::UInt16, g, info,
      [](std::size_t i, std::size_t j, std::size_t) { return static_cast<double>(i * 40 + j); });
  const auto mgFiles = writeSeries(*mg, dir / "mg");
  out = validate(mgFiles[0], dir.path());
  EXPECT_NE(out.find("MammographyImageForPresentation"), std::string::npos) << out;
  EXPECT_EQ(errors(out), "") << out;
}
