// Files that other programs wrote, or that are damaged in ways other programs' probes trip over:
// each is read right or refused by name, and none takes the process down.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/io/PathLoader.h"
#include "core/io/VolumeFileIO.h"

using namespace delineate::core;
namespace fs = std::filesystem;

namespace {

const fs::path kRepro = fs::path(DELINEATE_TEST_DATA) / "repro" / "gdcm-assert-abort.nii";

}  // namespace

// ITK's factory let GDCM probe this 349-byte ".nii", and an assertion in GDCM aborted the
// process: the user's unsaved work went with it. Only the NIfTI reader may look at it now, which
// takes it for an old Analyze header claiming more voxels than the file holds.
TEST(ForeignFileTest, AFileGdcmsProbeAbortsOnIsRefusedByName) {
  ASSERT_TRUE(fs::exists(kRepro)) << kRepro;
  NullProgress progress;
  try {
    openPath(kRepro, progress);
    FAIL() << "a damaged NIfTI file was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    const std::string what = e.what();
    EXPECT_NE(what.find("gdcm-assert-abort.nii"), std::string::npos) << what;
    EXPECT_NE(what.find("truncated or corrupt"), std::string::npos) << what;
  }
}

TEST(ForeignFileTest, TheCliSurvivesAFileGdcmsProbeAbortsOn) {
  std::string out;
  const int rc = delineate::test::runCommand(
      std::string(DELINEATE_CLI) + " info '" + kRepro.string() + "'", &out);
  EXPECT_NE(rc, 0) << out;
  EXPECT_NE(rc, -1) << "killed by a signal: " << out;
  EXPECT_LT(rc, 128) << "ended by a signal: " << out;
  EXPECT_NE(out.find("gdcm-assert-abort.nii: header claims"), std::string::npos) << out;
}

// A file named for one format but holding another is probed only by its extension's reader.
TEST(ForeignFileTest, AFileUnderAnotherFormatsNameIsRefusedNamingTheFormat) {
  delineate::test::TempDir dir;
  const fs::path nrrd = dir / "really-nifti.nrrd";
  fs::copy_file(kRepro, nrrd, fs::copy_options::overwrite_existing);
  NullProgress progress;
  try {
    readVolumeFile(nrrd, progress);
    ADD_FAILURE() << "read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a NRRD file"), std::string::npos) << e.what();
  }
}

// Found by the fuzz smoke: a NIfTI-2 header claiming 4.4 GB of voxels in a 640-byte file made
// the reader allocate them. The claim is now checked against the file (plain or gzip) first.
TEST(ForeignFileTest, ANifti2HeaderClaimingMoreThanTheFileHoldsIsRefusedBeforeAllocating) {
  const fs::path repro = fs::path(DELINEATE_TEST_DATA) / "repro" / "nifti2-claims-4gb.nii";
  ASSERT_TRUE(fs::exists(repro)) << repro;
  NullProgress progress;
  try {
    readVolumeFile(repro, progress);
    FAIL() << "read";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("header claims"), std::string::npos) << what;
    EXPECT_NE(what.find("truncated or corrupt"), std::string::npos) << what;
  }
}

// Found by fuzzing: JPEG 2000 files reached GDCM, whose assertions aborted the process: one
// claimed 1793 samples per pixel, one stored High Bit with VR FL. GDCM now reads a clean copy
// holding only the attributes the loader checked. And a malformed Acquisition Time ("1ERIVED")
// no longer throws a foreign exception out of the folder scan.
TEST(ForeignFileTest, DicomFilesThatOnceTookTheLoaderDownAreRefusedByName) {
  const fs::path repro = fs::path(DELINEATE_TEST_DATA) / "repro";
  for (const char* name : {"dicom-jpeg2000-five-samples-gdcm-abort.dcm",
                           "dicom-jpeg2000-high-bit-as-float-gdcm-abort.dcm",
                           "dicom-acquisition-time-not-digits.dcm"}) {
    SCOPED_TRACE(name);
    delineate::test::TempDir dir;
    fs::copy_file(repro / name, dir.path() / name);
    NullProgress progress;
    try {
      const OpenedPath opened = openPath(dir.path() / name, progress);
      EXPECT_TRUE(opened.volume) << "opened nothing and said nothing";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}
