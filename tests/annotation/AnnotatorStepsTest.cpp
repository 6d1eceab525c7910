// The annotator loop's Qt-free steps: the local name and format of a server's image, and the
// training request naming the uploaded snapshots. The steps that talk to a server are driven
// against delineate-server in tests/app/AnnotatorLoopTest.cpp.
#include <gtest/gtest.h>

#include "annotation/ai/AnnotatorSteps.h"

namespace delineate::annotation {
namespace {

TEST(AnnotatorSteps, ServerFilesKeepTheirFormatUnderASafeLocalName) {
  EXPECT_EQ(serverFileSuffix("/srv/datastore/images/brain_001.nii.gz"), ".nii.gz");
  EXPECT_EQ(serverFileSuffix("/srv/datastore/images/ct.nrrd"), ".nrrd");
  EXPECT_EQ(serverFileSuffix("/srv/x/volume.mha.bz2"), ".mha.bz2");
  EXPECT_EQ(serverFileSuffix("/srv/x/noextension"), ".nii.gz");
  EXPECT_EQ(serverFileSuffix(".hidden"), ".nii.gz");
  EXPECT_EQ(safeFileName("spleen_12"), "spleen_12");
  // No separator survives and no name starts with a dot: no way out of the download folder.
  EXPECT_EQ(safeFileName("../../etc/passwd"), "_._.._etc_passwd");
  EXPECT_EQ(safeFileName("a b/c"), "a_b_c");
  EXPECT_EQ(safeFileName(""), "image");
}

TEST(AnnotatorSteps, TheTrainingRequestNamesTheUploadedSnapshots) {
  EXPECT_EQ(trainingRequest({}), nlohmann::json::object());
  EXPECT_EQ(trainingRequest({"3f1c"}), (nlohmann::json{{"dataset_snapshot", "3f1c"}}));
  EXPECT_EQ(trainingRequest({"3f1c", "9b07"}),
            (nlohmann::json{{"dataset_snapshot", {"3f1c", "9b07"}}}));
}

}  // namespace
}  // namespace delineate::annotation
