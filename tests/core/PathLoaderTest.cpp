// Opening what a user points at: a DICOMDIR opens the media it indexes (its folder's largest
// series), as the desktop's file association promises; a file that is neither image nor DICOM is
// refused naming it.
#include <gtest/gtest.h>

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcmetinf.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <fstream>

#include "DicomSegTestSupport.h"
#include "TempDir.h"
#include "UploadTestSupport.h"
#include "core/Error.h"
#include "core/io/PathLoader.h"

namespace delineate {
namespace {

namespace fs = std::filesystem;

TEST(PathLoader, ADicomDirOpensTheLargestSeriesOfItsMedia) {
  test::TempDir dir;
  core::NullProgress quiet;
  core::writeDicomSeries(*test::boxImage(1), dir / "media" / "S1", {}, quiet);
  core::writeDicomSeries(*test::boxImage(2, {12, 10, 20}), dir / "media" / "S2", {}, quiet);
  DcmFileFormat dicomdir;  // a media directory object: no pixels, skipped by the scan
  dicomdir.getMetaInfo()->putAndInsertString(DCM_MediaStorageSOPClassUID,
                                             UID_MediaStorageDirectoryStorage);
  dicomdir.getDataset()->putAndInsertString(DCM_FileSetID, "DELINEATE");
  ASSERT_TRUE(
      dicomdir.saveFile((dir / "media" / "DICOMDIR").c_str(), EXS_LittleEndianExplicit).good());

  const core::OpenedPath opened = core::openPath(dir / "media" / "DICOMDIR", quiet);
  ASSERT_TRUE(opened.volume);
  EXPECT_EQ(opened.volume->geometry().size[2], 20u) << "the larger of the two series";
  EXPECT_EQ(opened.scan.allSeries().size(), 2u);
  ASSERT_TRUE(opened.shownSeries);
}

TEST(PathLoader, AFileThatIsNeitherImageNorDicomIsRefusedNamingIt) {
  test::TempDir dir;
  std::ofstream(dir / "notes.txt") << "not an image";
  core::NullProgress quiet;
  try {
    core::openPath(dir / "notes.txt", quiet);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("notes.txt"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace delineate
