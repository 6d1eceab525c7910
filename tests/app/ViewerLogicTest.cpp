// Qt-free viewer logic: slice geometry, the 2D viewport, shared view state, window/level.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "SyntheticCt.h"
#include "viewers/SliceGeometry.h"
#include "viewers/SliceViewport.h"
#include "viewers/ViewState.h"
#include "viewers/VolumePresets.h"
#include "viewers/WindowLevel.h"

using namespace delineate;
using namespace delineate::viewers;
using delineate::test::SyntheticCt;

TEST(SliceGeometry, RadiologicalScreenLetters) {
  auto letters = [](SliceOrientation o) {
    const ScreenLetters l = screenLetters(o);
    return std::string{l.left, l.right, l.top, l.bottom};
  };
  EXPECT_EQ(letters(SliceOrientation::Axial), "RLAP");
  EXPECT_EQ(letters(SliceOrientation::Coronal), "RLSI");
  EXPECT_EQ(letters(SliceOrientation::Sagittal), "APSI");
}

TEST(SliceGeometry, SliceIndexFollowsTheViewNormalWhateverTheVoxelOrder) {
  for (bool flipped : {false, true}) {
    const auto g = SyntheticCt::make(flipped)->geometry();
    const core::Vec3 c{0.75, 0.75, 1.5};
    EXPECT_EQ(sliceCount(g, SliceOrientation::Sagittal), 128);
    const int i = sliceIndex(g, SliceOrientation::Sagittal, {flipped ? -0.75 : 0.75, 0, 0});
    const core::Vec3 next = moveToSlice(g, SliceOrientation::Sagittal, c, i + 1);
    EXPECT_NEAR(next[0] - (flipped ? -0.75 : 0.75), 1.5, 1e-9) << "next sagittal slice is left";
    EXPECT_EQ(next[1], c[1]);
    EXPECT_EQ(next[2], c[2]);
    const core::Vec3 front = moveToSlice(g, SliceOrientation::Coronal, c, 111);
    EXPECT_NEAR(front[1], -83.25, 1e-9) << "last coronal slice is the most anterior";
    EXPECT_EQ(sliceIndex(g, SliceOrientation::Axial, {0, 0, 58.5}), 39);
  }
}

TEST(SliceGeometry, ResliceAxesMapPlanePointsIntoIndexSpace) {
  core::ImageGeometry g;
  g.size = {20, 30, 10};
  g.spacing = {0.8, 1.1, 2.5};
  g.origin = {-5, 12, 30};
  const double c = std::cos(0.4), s = std::sin(0.4);
  g.direction = {c, 0, s, 0, 1, 0, -s, 0, c};  // oblique about y
  for (SliceOrientation o :
       {SliceOrientation::Axial, SliceOrientation::Coronal, SliceOrientation::Sagittal}) {
    const SliceAxes a = sliceAxes(o);
    const auto m = resliceAxes(g, o, 7.0);
    for (double u : {-10.0, 3.0}) {
      for (double v : {-4.0, 15.0}) {
        core::Vec3 world{};
        for (int k = 0; k < 3; ++k) {
          world[k] = u * a.right[k] + v * a.up[k] + 7.0 * a.normal[k];
        }
        const core::Vec3 ijk = g.worldToIndex(world);
        for (int r = 0; r < 3; ++r) {
          const double q = m[4 * r] * u + m[4 * r + 1] * v + m[4 * r + 3];
          EXPECT_NEAR(q, ijk[r] * g.spacing[r], 1e-9);
        }
      }
    }
  }
}

TEST(SliceGeometry, SnapAndContain) {
  const auto g = SyntheticCt::make()->geometry();
  EXPECT_EQ(snapToVoxel(g, {50, 0.1, 0.2}), (core::Vec3{50.25, 0.75, 1.5}));
  EXPECT_EQ(snapToVoxel(g, {500, 0, 0})[0], 95.25);
  EXPECT_TRUE(containsVoxel(g, {95.9, 0, 0}));
  EXPECT_FALSE(containsVoxel(g, {96.1, 0, 0}));
  const auto b = screenBounds(g, SliceOrientation::Axial);
  EXPECT_NEAR(b[0], -96, 1e-9);
  EXPECT_NEAR(b[1], 96, 1e-9);
  EXPECT_NEAR(b[3] - b[2], 168, 1e-9);
}

TEST(SliceViewport, ZoomKeepsThePointUnderTheMouse) {
  SliceViewport vp;
  vp.setViewSize(400, 300);
  vp.fit({-100, 100, -50, 50});
  EXPECT_NEAR(vp.mmPerPixel(), 208.0 / 400, 1e-12);  // 2 % margin each side
  const auto p = vp.displayToPlane(0, 150);
  EXPECT_NEAR(p[0], -104, 1e-9);
  EXPECT_NEAR(p[1], 0, 1e-9);
  const auto before = vp.displayToPlane(321, 77);
  vp.zoomAbout(321, 77, 2.5);
  const auto after = vp.displayToPlane(321, 77);
  EXPECT_NEAR(before[0], after[0], 1e-9);
  EXPECT_NEAR(before[1], after[1], 1e-9);
  const auto d = vp.planeToDisplay(after[0], after[1]);
  EXPECT_NEAR(d[0], 321, 1e-9);
  vp.panBy(10, -5);
  const auto moved = vp.planeToDisplay(after[0], after[1]);
  EXPECT_NEAR(moved[0], 331, 1e-9);
  EXPECT_NEAR(moved[1], 72, 1e-9);
  EXPECT_NEAR(vp.parallelScale(), vp.mmPerPixel() * 150, 1e-12);
}

TEST(ViewState, CursorSnapsAndObserversHearWhatChanged) {
  ViewState state;
  std::vector<unsigned> heard;
  const int id = state.addObserver([&](unsigned c) { heard.push_back(c); });
  state.setVolume(SyntheticCt::make());
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0],
            ViewState::VolumeChanged | ViewState::CursorChanged | ViewState::WindowChanged);
  EXPECT_EQ(state.cursor(), (core::Vec3{0.75, 0.75, 1.5}));
  EXPECT_EQ(state.windowLevel(), (WindowLevel{40, 400}));
  state.setCursor({10.1, -3, 4});
  EXPECT_EQ(heard.back(), unsigned{ViewState::CursorChanged});
  EXPECT_EQ(state.cursor(), (core::Vec3{9.75, -2.25, 4.5}));
  const auto count = heard.size();
  state.setCursor({9.8, -2.3, 4.4});  // same voxel: no notification
  EXPECT_EQ(heard.size(), count);
  // An observer removing another during notification is safe.
  int second = 0;
  int other = 0;
  other = state.addObserver([&](unsigned) { ++second; });
  state.addObserver([&](unsigned) { state.removeObserver(other); });
  state.setWindowLevel({0, 100});
  state.setWindowLevel({1, 100});
  EXPECT_LE(second, 1);
  state.removeObserver(id);
}

TEST(WindowLevel, DragDirectionsAndDefaults) {
  const WindowLevel start{40, 400};
  EXPECT_GT(dragWindowLevel(start, 50, 0).width, 400);
  EXPECT_LT(dragWindowLevel(start, -50, 0).width, 400);
  EXPECT_GT(dragWindowLevel(start, 0, 50).center, 40);
  EXPECT_LT(dragWindowLevel(start, 0, -50).center, 40);
  EXPECT_GT(dragWindowLevel(start, -100000, 0).width, 0);

  const auto ct = SyntheticCt::make();
  EXPECT_TRUE(looksLikeCt(*ct));
  bool bone = false;
  for (const auto& p : windowPresets(*ct)) {
    bone = bone || (p.name == "Bone" && p.center == 400 && p.width == 1800);
  }
  EXPECT_TRUE(bone);

  // An MR-like volume: no CT presets, the default window spans the bulk of the values.
  core::ImageGeometry g;
  g.size = {50, 40, 3};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::UInt16, g.voxelCount());
  for (std::size_t n = 0; n < voxels->count(); ++n) {
    voxels->as<std::uint16_t>()[n] = static_cast<std::uint16_t>(n % 1000);
  }
  core::VolumeInfo info;
  info.modality = "MR";
  const core::Volume mr(g, voxels, info);
  EXPECT_FALSE(looksLikeCt(mr));
  const WindowLevel w = defaultWindow(mr);
  EXPECT_NEAR(w.center, 500, 20);
  EXPECT_NEAR(w.width, 990, 20);
  EXPECT_EQ(defaultVolumePreset(mr), VolumePreset::Mr);
  EXPECT_EQ(defaultVolumePreset(*ct), VolumePreset::CtBone);
  const VolumeStyle style = volumeStyle(VolumePreset::Mr, mr);
  for (std::size_t i = 1; i < style.points.size(); ++i) {
    EXPECT_GT(style.points[i].value, style.points[i - 1].value);
  }
}
