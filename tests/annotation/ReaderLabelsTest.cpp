// Readers' labels on an AI server's datastore, without a server: the tag a reader's label is kept
// under, and the readers found in a MONAI Label datastore listing (GET /datastore/?output=all),
// odd entries included. The round trip through delineate-server: tests/net/ReaderLabelsServerTest.
#include <gtest/gtest.h>

#include "annotation/ai/ReaderLabels.h"

namespace delineate::annotation {
namespace {

using nlohmann::json;

TEST(ReaderLabels, EachReaderHasOneTagThatIsASafeFolderName) {
  EXPECT_EQ(readerLabelTag("Dr A. Smith"), "reader-dr_a_smith");
  EXPECT_EQ(readerLabelTag("jdoe"), "reader-jdoe");
  EXPECT_EQ(readerLabelTag("  Reader 2  "), "reader-reader_2");
  EXPECT_EQ(readerLabelTag("../../etc"), "reader-etc") << "no separator, no dot";
  EXPECT_EQ(readerLabelTag("Zoë"), "reader-zo") << "ASCII only: a folder on any server";
  EXPECT_EQ(readerLabelTag("???"), "reader-anonymous");
  EXPECT_EQ(readerLabelTag(""), "reader-anonymous");
  EXPECT_EQ(readerLabelTag("Dr A"), readerLabelTag("dr a")) << "the same reader, the same tag";
}

TEST(ReaderLabels, TheReadersOfAnImageAreFoundInTheDatastoreListing) {
  const json objects = json::parse(R"({
    "case1": {"image": {"ext": ".nii.gz", "info": {"name": "case1.nii.gz"}},
              "labels": {
                "final": {"ext": ".nii.gz", "info": {}},
                "original": {"ext": ".nii.gz", "info": {}},
                "reader-dr_b": {"ext": ".nii.gz", "info": {"reader": "Dr B"}},
                "reader-dr_a": {"ext": ".nrrd", "info": {"reader": "Dr A", "label_info": []}},
                "reader-nobody": {"ext": ".nii.gz"},
                "reader-": {"ext": ".nii.gz", "info": {"reader": "empty tag"}},
                "reader-odd": {"ext": ".nii.gz", "info": {"reader": 7}}}},
    "case2": {"image": {"ext": ".nii.gz", "info": {}},
              "labels": {"reader-dr_c": {"ext": ".nii.gz", "info": {"reader": "Dr C"}}}}
  })");
  const auto readers = readerLabelsOf(objects, "case1");
  ASSERT_EQ(readers.size(), 4u) << "final, original and a bare prefix are not readers";
  EXPECT_EQ(readers[0], (ServerReaderLabel{"Dr A", "reader-dr_a", ""}));
  EXPECT_EQ(readers[1], (ServerReaderLabel{"Dr B", "reader-dr_b", ""}));
  EXPECT_EQ(readers[2], (ServerReaderLabel{"nobody", "reader-nobody", ""}))
      << "no info: the name from the tag";
  EXPECT_EQ(readers[3], (ServerReaderLabel{"odd", "reader-odd", ""})) << "a reader not a string";
  EXPECT_TRUE(readerLabelsOf(objects, "case3").empty()) << "an image the server lacks";
  EXPECT_TRUE(readerLabelsOf(json::array(), "case1").empty());
  EXPECT_TRUE(readerLabelsOf(json{{"case1", {{"labels", "x"}}}}, "case1").empty());
  EXPECT_TRUE(readerLabelsOf(json{{"case1", 3}}, "case1").empty());
}

}  // namespace
}  // namespace delineate::annotation
