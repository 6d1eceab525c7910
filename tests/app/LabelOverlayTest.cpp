// The label overlay of a slice view: colours from the segment table, fill and outline, and
// updates that touch only the part of the label texture an edit reaches.
#include <gtest/gtest.h>

#include <QImage>
#include <memory>

#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "core/edit/LabelMapEdit.h"
#include "viewers/LabelDisplayState.h"
#include "viewers/LabelSliceLayer.h"
#include "viewers/SliceGeometry.h"
#include "viewers/SliceView.h"
#include "viewers/ViewState.h"
#include "viewers/VtkOpenGLWidget.h"

using namespace delineate;
using namespace delineate::viewers;
using delineate::test::waitUntil;

TEST(LabelDisplayState, ColourTableFollowsTheSegmentsAndSettings) {
  core::ImageGeometry g;
  g.size = {4, 4, 4};
  core::Segment a;
  a.label = 1;
  a.color = {255, 0, 0};
  core::Segment b;
  b.label = 3;
  b.color = {0, 0, 255};
  b.visible = false;
  core::LabelMap map("m", g, {a, b});
  LabelDisplayState state;
  auto table = state.colorTable(map);
  ASSERT_EQ(table.size(), 4u);
  EXPECT_EQ(table[0].fill[3], 0);
  EXPECT_EQ(table[1].fill, (std::array<std::uint8_t, 4>{255, 0, 0, 128}));
  EXPECT_EQ(table[1].outline, (std::array<std::uint8_t, 4>{255, 0, 0, 255}));
  EXPECT_EQ(table[2].fill[3], 128) << "a value without a segment still shows";
  EXPECT_EQ(table[3].fill[3], 0) << "hidden";
  EXPECT_EQ(table[3].outline[3], 0);
  state.setSegmentOpacity(map, 1, 0.5);
  EXPECT_EQ(state.colorTable(map)[1].outline[3], 128);
  state.setSettings({.opacity = 0.5, .fillOpacity = 1, .showFill = true, .showOutline = false});
  table = state.colorTable(map);
  EXPECT_EQ(table[1].fill[3], 64);
  EXPECT_EQ(table[1].outline[3], 0);
  EXPECT_EQ(state.visibleLabels(map), (std::vector<std::uint16_t>{1}));
}

TEST(SliceGeometry, ProjectBoxFindsThePixelsAnEditReaches) {
  core::ImageGeometry g;
  g.size = {100, 80, 30};
  g.spacing = {1, 1, 2};
  const SliceGrid grid = sliceGrid(g, SliceOrientation::Axial);
  EXPECT_EQ(grid.nu, 100);
  EXPECT_EQ(grid.nv, 80);
  const core::VoxelBox box{{10, 20, 5}, {15, 30, 6}};
  // Axial slice through k = 5 (z = 10 mm): reached; k = 7: not.
  const auto hit = projectBox(g, SliceOrientation::Axial, 10, grid, box, 0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->x0, 10);
  EXPECT_EQ(hit->x1, 14);
  // Screen up is anterior (-y): rows count from the bottom of the screen (posterior).
  EXPECT_EQ(hit->y0, 80 - 30);
  EXPECT_EQ(hit->y1, 80 - 21);
  EXPECT_FALSE(projectBox(g, SliceOrientation::Axial, 14, grid, box, 0).has_value());
  // Sagittal through i = 12: reached; i = 40: not.
  const SliceGrid sg = sliceGrid(g, SliceOrientation::Sagittal);
  EXPECT_TRUE(projectBox(g, SliceOrientation::Sagittal, 12, sg, box).has_value());
  EXPECT_FALSE(projectBox(g, SliceOrientation::Sagittal, 40, sg, box).has_value());
}

namespace {

class LabelOverlayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DELINEATE_REQUIRE_GUI();
    state_ = std::make_shared<ViewState>();
    labels_ = std::make_shared<LabelDisplayState>();
  }

  // A 300 x 300 x 8 image: the axial slice is 3 x 3 tiles of 128 pixels.
  void load() {
    core::ImageGeometry g;
    g.size = {300, 300, 8};
    auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
    core::VolumeInfo info;
    info.modality = "CT";
    image_ = std::make_shared<const core::Volume>(g, voxels, info);
    state_->setVolume(image_);
    core::Segment s;
    s.color = {0, 255, 0};
    map_ = std::make_shared<core::LabelMap>("labels", g, std::vector<core::Segment>{s});
    labels_->setLabelMaps({map_});
  }

  // Paints segment 1 in a box and announces it as the Document would.
  void paint(const core::VoxelBox& box) {
    core::LabelMapEdit edit(*map_);
    for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
      for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
        for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i) {
          edit.write(i, j, k, 1);
        }
      }
    }
    edit.commit();
    labels_->voxelsChanged(*map_, box);
  }

  std::shared_ptr<ViewState> state_;
  std::shared_ptr<LabelDisplayState> labels_;
  core::VolumePtr image_;
  std::shared_ptr<core::LabelMap> map_;
};

}  // namespace

TEST_F(LabelOverlayTest, AnEditUploadsOnlyTheTilesItTouches) {
  load();
  SliceView view(SliceOrientation::Axial, state_);
  view.setLabelState(labels_);
  view.resize(400, 400);
  view.show();
  ASSERT_TRUE(waitUntil([&] { return view.hasRenderedVolume() && view.hasRenderedLabels(); }));
  const std::size_t start = view.labelUploadedBytes();
  EXPECT_EQ(start, 0u) << "an empty label map draws nothing";

  const int k = view.sliceIndex();
  // A 10 x 10 stamp inside one tile of the current slice: one 128 x 128 RGBA tile (rows count
  // up from the posterior edge: j = 100 is row 199).
  paint({{20, 100, std::size_t(k)}, {30, 110, std::size_t(k) + 1}});
  const std::size_t tile = 128 * 128 * 4;
  EXPECT_EQ(view.labelUploadedBytes() - start, tile);
  ASSERT_TRUE(waitUntil([&] { return view.hasRenderedLabels(); }));
  const QImage image = test::grabCanvas(view.canvas());
  const auto at = [&](double i, double j) {
    const QPointF p = view.worldToCanvas(image_->geometry().indexToWorld({i, j, double(k)})) *
                      view.canvas()->devicePixelRatioF();
    return image.pixel(static_cast<int>(p.x()), static_cast<int>(p.y()));
  };
  // Inside: fill (green at half opacity over the grey image); on the edge: the outline (green
  // at full opacity); outside: the image.
  const int gray = qGray(at(60, 105));
  EXPECT_NEAR(qGreen(at(25, 105)), 0.5 * 255 + 0.5 * gray, 8);
  EXPECT_NEAR(qRed(at(25, 105)), 0.5 * gray, 8);
  EXPECT_GE(qGreen(at(20, 105)), 245);
  EXPECT_LE(qRed(at(20, 105)), 8);
  EXPECT_NEAR(qGreen(at(40, 105)), gray, 3) << "outside the stamp";

  // An edit on another slice reaches nothing here.
  const std::size_t before = view.labelUploadedBytes();
  const std::size_t other = k == 0 ? 3 : 0;
  paint({{20, 100, other}, {30, 110, other + 1}});
  EXPECT_EQ(view.labelUploadedBytes(), before);
  // A stamp across a tile corner: four tiles.
  paint({{120, 160, std::size_t(k)}, {140, 180, std::size_t(k) + 1}});
  EXPECT_EQ(view.labelUploadedBytes() - before, 4 * tile);
}
