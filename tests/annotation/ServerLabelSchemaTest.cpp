// Matching a label map to a server's label schema before it is submitted for training: names
// match without case, voxels take the server's values, empty segments are left out, and a
// segment the server does not know is refused with the names it knows.
#include <gtest/gtest.h>

#include "annotation/ai/ServerLabelSchema.h"
#include "core/Error.h"
#include "core/ai/MonaiInfo.h"

using namespace delineate;
using namespace delineate::annotation;

namespace {

core::ai::ServerInfo serverInfo() {
  return core::ai::parseMonaiInfo(R"({
    "labels": [],
    "models": {"seg": {"type": "segmentation", "labels": {"background": 0, "spleen": 1,
                                                           "liver": 6}},
               "other": {"type": "deepedit", "labels": {"liver": 3, "kidney": 2}},
               "det": {"type": "detection", "labels": {"mass": 4}}},
    "trainers": {"seg_train": {"config": {}}}})",
                                  "http://gpu:8000");
}

core::LabelMap painted(const std::vector<core::Segment>& segments,
                       const std::vector<std::uint16_t>& values) {
  core::ImageGeometry g;
  g.size = {4, 2, 1};
  core::LabelMap map("Segmentation", g, segments);
  for (std::size_t i = 0; i < values.size(); ++i) {
    map.mutableData()[i] = values[i];
  }
  return map;
}

}  // namespace

TEST(ServerLabelSchema, ModelLabelsMakeTheSchemaTheFirstModelWinningANameAndNoBackground) {
  const auto schema = serverLabelSchema(serverInfo());
  EXPECT_EQ(schemaNames(schema), "spleen, kidney, liver");
  ASSERT_EQ(schema.size(), 3u);
  EXPECT_EQ(schema[2].value, 3) << "'other' comes before 'seg' by name";
  // A trainer named after a model trains on that model's labels.
  EXPECT_EQ(schemaNames(serverLabelSchema(serverInfo(), "seg")), "spleen, liver");
}

TEST(ServerLabelSchema, VoxelsTakeTheServersValuesAndEmptySegmentsAreLeftOut) {
  const core::LabelMap map = painted(
      {{.label = 1, .name = " Liver"}, {.label = 2, .name = "SPLEEN"}, {.label = 3, .name = "x"}},
      {1, 1, 2, 0, 0, 2, 1, 0});
  core::NullProgress progress;
  const auto out = labelsForServer(map, serverLabelSchema(serverInfo()), "srv", progress);
  const std::vector<std::uint16_t> voxels(out->data(), out->data() + out->voxelCount());
  EXPECT_EQ(voxels, (std::vector<std::uint16_t>{3, 3, 1, 0, 0, 1, 3, 0}));
  ASSERT_EQ(out->segments().size(), 2u) << "'x' has no voxels: not sent, not refused";
  EXPECT_EQ(out->segments()[0].name, "spleen");
  EXPECT_EQ(out->segments()[0].label, 1);
  EXPECT_EQ(out->segments()[1].name, "liver");
  EXPECT_EQ(out->segments()[1].label, 3);
}

TEST(ServerLabelSchema, AnUnknownSegmentIsRefusedWithTheNamesTheServerKnows) {
  const core::LabelMap map =
      painted({{.label = 1, .name = "liver"}, {.label = 2, .name = "Tumour"}}, {1, 2, 0, 0});
  core::NullProgress progress;
  try {
    labelsForServer(map, serverLabelSchema(serverInfo()), "http://gpu:8000", progress);
    FAIL() << "refused expected";
  } catch (const core::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("http://gpu:8000"), std::string::npos) << what;
    EXPECT_NE(what.find("'Tumour'"), std::string::npos) << what;
    EXPECT_NE(what.find("spleen, kidney, liver"), std::string::npos) << what;
  }
  EXPECT_THROW(labelsForServer(painted({{.label = 1, .name = "liver"}}, {0, 0}),
                               serverLabelSchema(serverInfo()), "srv", progress),
               core::Error)
      << "nothing painted: nothing to submit";
}
