// Readers' labels on an AI server's datastore, without a server: the tag a reader's label is kept
// under, and the readers found in a MONAI Label datastore listing (GET /datastore/?output=all),
// odd entries included, and fetching them from a server whose listing is odd (entries and fields
// of the wrong type). The round trip through delineate-server: tests/net/ReaderLabelsServerTest.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "TempDir.h"
#include "annotation/ai/ReaderLabels.h"
#include "core/io/SegmentTableJson.h"

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

// A datastore whose listing is given, and whose labels download as a few bytes naming the tag.
class ListingOnly : public core::ai::AiBackend {
 public:
  explicit ListingOnly(json objects) : objects_(std::move(objects)) {}
  std::string displayName() const override { return "listing"; }
  core::ai::ServerInfo info(core::ProgressSink&) override { return {}; }
  core::ai::InferResult infer(const core::ai::InferRequest&, core::ProgressSink&) override {
    return {};
  }
  json datastoreObjects(core::ProgressSink&) override { return objects_; }
  bool fetchLabel(const std::string&, const std::string& tag, const std::string& path,
                  core::ProgressSink&) override {
    std::ofstream(path) << tag;
    return true;
  }

 private:
  json objects_;
};

TEST(ReaderLabels, AnOddListingFetchesWhatItCanWithoutThrowing) {
  const json objects = json::parse(R"({"case1": {"labels": {
      "reader-a": "not an object",
      "reader-b": {"ext": 7, "info": "not an object"},
      "reader-c": {"ext": "/../../x", "info": {"reader": "Dr C",
                   "label_info": [{"name": "liver", "idx": 1}, {"name": 3, "idx": 2},
                                  {"name": "big", "idx": 70000}, "x"]}}}}})");
  ListingOnly server(objects);
  test::TempDir dir;
  core::NullProgress progress;
  const auto fetched = fetchReaderLabels(server, "case1", (dir / "readers").string(), progress);
  ASSERT_EQ(fetched.size(), 3u);
  for (const auto& r : fetched) {
    EXPECT_EQ(std::filesystem::path(r.path).parent_path(), dir / "readers") << r.path;
    EXPECT_EQ(std::filesystem::path(r.path).extension(), ".gz") << "odd extensions not used";
    EXPECT_TRUE(std::filesystem::exists(r.path)) << r.path;
  }
  EXPECT_EQ(fetched[2].reader, "Dr C");
  EXPECT_EQ(std::filesystem::path(fetched[2].path).filename(), "Dr C.nii.gz");
  // Only Dr C's one well-formed structure name makes a segment table.
  EXPECT_FALSE(std::filesystem::exists(dir / "readers" / "a.json"));
  const auto table = core::readSegmentTable(dir / "readers" / "Dr C.json");
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0].name, "liver");
  EXPECT_EQ(table[0].label, 1);
}

}  // namespace
}  // namespace delineate::annotation
