// Several readers of one image on delineate-server through the MONAI Label client, over HTTP on
// 127.0.0.1: each reader's label is kept under its own tag beside `final`, the datastore listing
// (output=all, in MONAI Label's shape) names them, and fetching them back gives each reader's
// voxels under the reader's name with the server's structure names. A reader's label is not a
// final label: active learning still offers the image until one is submitted.
#include <gtest/gtest.h>

#include <filesystem>

#include "AiTestSupport.h"
#include "annotation/ai/AnnotatorSteps.h"
#include "annotation/ai/ReaderLabels.h"
#include "annotation/ai/ServerLabelSchema.h"
#include "core/ai/VolumeBytes.h"
#include "core/io/LabelMapFileIO.h"
#include "core/jobs/ProgressSink.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;
using nlohmann::json;

namespace {

std::size_t countOf(const core::LabelMap& map, std::uint16_t value) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < map.voxelCount(); ++i) {
    n += map.data()[i] == value ? 1 : 0;
  }
  return n;
}

// The truth as a reader who names the structure `name` and paints it with `value`, leaving out
// the slices from `from` on.
std::shared_ptr<core::LabelMap> readerMap(const core::LabelMap& truth, const std::string& name,
                                          std::uint16_t value, std::size_t from) {
  auto map = std::make_shared<core::LabelMap>(
      name, truth.geometry(), std::vector<core::Segment>{{.label = value, .name = name}});
  const auto& n = truth.geometry().size;
  for (std::size_t i = 0; i < truth.voxelCount(); ++i) {
    const std::size_t k = i / (n[0] * n[1]);
    map->mutableData()[i] = truth.data()[i] != 0 && k < from ? value : 0;
  }
  return map;
}

TEST(ReaderLabelsServer, EachReaderIsKeptApartFromTheFinalLabelAndComesBackByName) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", {}, std::nullopt, {{"Ball", 1}});
  test::BallImage ball;
  plugins::MonaiServerConfig config;
  config.url = server.url();
  plugins::MonaiLabelBackend client(config);
  core::NullProgress progress;
  core::ai::DatastoreFile image;
  image.filename = "case1.nii.gz";
  image.bytes = core::ai::volumeToBytes(*ball.image, "x.nii.gz");
  ASSERT_EQ(client.putImageFile("case1", image, progress), "case1");
  const auto schema = annotation::serverLabelSchema(client.info(progress));
  ASSERT_EQ(schema.size(), 1u);

  const auto drA = readerMap(*ball.truth, "ball", 1, 1000);  // all of it
  const auto drB = readerMap(*ball.truth, "BALL ", 3, 20);   // half, another value
  annotation::submitReaderLabel(client, *drA, schema, "case1", "Dr A", server.url(), progress);
  annotation::submitReaderLabel(client, *drB, schema, "case1", "Dr B", server.url(), progress);
  annotation::submitReaderLabel(client, *drB, schema, "case1", "Dr A", server.url(), progress);
  annotation::submitReaderLabel(client, *drA, schema, "case1", "Dr A", server.url(), progress);
  EXPECT_EQ(client.nextSample("first", progress)->id, "case1")
      << "readers' labels are not the final label";

  const json objects = client.datastoreObjects(progress);
  ASSERT_TRUE(objects.contains("case1")) << objects.dump();
  EXPECT_EQ(objects["case1"]["labels"].size(), 2u) << "Dr A's second reading replaced the first";
  EXPECT_EQ(objects["case1"]["labels"]["reader-dr_a"]["info"]["reader"], "Dr A");
  EXPECT_EQ(objects["case1"]["labels"]["reader-dr_a"]["ext"], ".nii.gz");

  const auto fetched =
      annotation::fetchReaderLabels(client, "case1", (dir / "readers").string(), progress);
  ASSERT_EQ(fetched.size(), 2u);
  EXPECT_EQ(fetched[0].reader, "Dr A");
  EXPECT_EQ(fetched[1].reader, "Dr B");
  const core::LabelMap a = core::readLabelMapFiles(fetched[0].path, &ball.image->geometry());
  const core::LabelMap b = core::readLabelMapFiles(fetched[1].path, &ball.image->geometry());
  EXPECT_EQ(a.name(), "Dr A") << "each map named after its reader";
  EXPECT_EQ(b.name(), "Dr B");
  EXPECT_EQ(countOf(a, 1), countOf(*drA, 1));
  EXPECT_EQ(countOf(b, 1), countOf(*drB, 3)) << "in the server's value";
  EXPECT_LT(countOf(b, 1), countOf(a, 1));
  ASSERT_NE(b.segment(1), nullptr);
  EXPECT_EQ(b.segment(1)->name, "Ball") << "the server's name for the structure";

  // The adjudicated map is the final label; the readers' stay.
  annotation::submitFinalLabel(client, *drA, schema, "case1", server.url(), progress);
  EXPECT_FALSE(client.nextSample("first", progress).has_value());
  EXPECT_EQ(client.datastoreObjects(progress)["case1"]["labels"].size(), 3u);
  EXPECT_EQ(
      annotation::fetchReaderLabels(client, "case1", (dir / "again").string(), progress).size(),
      2u);
  EXPECT_TRUE(
      annotation::fetchReaderLabels(client, "case9", (dir / "none").string(), progress).empty());
}

}  // namespace
